/// How `JPEGDecoder.readScaled` decodes a baseline scan from two places at once: this thread from
/// the start, a helper thread from `tailShare` of the way back from the end, meeting where the
/// helper's decoding has fallen in step with the code (Huffman codes self-synchronise) or at a
/// restart marker. Progressive, arithmetic-coded and small scans, and scans the file ends in
/// (cut short), keep libjpeg's own decoder.
public struct SplitScan: Sendable {
    /// Of the scan's data, the share the helper decodes: a little under half, because this thread
    /// also runs libjpeg's inverse DCT and colour conversion and hands on the rows.
    public var tailShare: Double
    /// Bytes of coefficients the helper keeps at most; past them this thread decodes the rest.
    /// At 1/8 scale the helper's part of a 24 MP camera JPEG takes about 2 MB.
    public var storeLimit: Int
    /// Scans of fewer bytes are decoded on one thread: a thread would cost more than it saves.
    public var minimumBytes: Int

    /// What decoding this way holds beyond libjpeg's own: the store, the two readers' chunks and
    /// the helper's notes of where its MCUs start.
    public var reservedBytes: Int { storeLimit + (1 << 20) }

    public init(tailShare: Double = 0.47, storeLimit: Int = 4 << 20, minimumBytes: Int = 256 << 10) {
        self.tailShare = tailShare
        self.storeLimit = storeLimit
        self.minimumBytes = minimumBytes
    }
}
