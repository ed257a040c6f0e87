import FileIO

/// Which values of an input to decode.
public struct DoubleSelection: Sendable, Equatable {
    public var byteOrder: ByteOrder
    /// Bytes to pass over before the first value.
    public var offset: Int
    /// The most values to decode; nil for all.
    public var count: Int?

    public init(byteOrder: ByteOrder = .little, offset: Int = 0, count: Int? = nil) {
        self.byteOrder = byteOrder
        self.offset = offset
        self.count = count
    }
}

/// Decodes consecutive IEEE-754 binary64 values from a byte source, block by block, in constant memory
/// (`RecordReader` of 8-byte records). Bytes are loaded unaligned and swapped to host order explicitly,
/// so any offset and host work.
public struct DoubleReader<Source: ByteSource> {
    public static var blockCapacity: Int { 8192 }

    private var records: RecordReader<Source>
    private let selection: DoubleSelection

    public init(source: Source, selection: DoubleSelection) {
        records = RecordReader(source: source, stride: 8, offset: selection.offset, count: selection.count)
        self.selection = selection
    }

    /// The bytes left in the source, when known up front.
    public var remainingLength: Int? { records.remainingLength }

    /// The trailing bytes the selection would meet, when the source's length is known up front:
    /// lets a caller refuse an input before printing anything for it.
    public func precheck() throws(DoubleDecodingError) -> DoubleDecodingError? {
        try records.precheck()
    }

    /// Calls `body` with each block of decoded values, in order. Returns the trailing-bytes problem
    /// met at the end, if any, for the caller to treat as an error or a warning.
    public mutating func forEachBlock(
        _ body: (UnsafeBufferPointer<Double>) throws -> Void
    ) throws -> DoubleDecodingError? {
        let values = UnsafeMutableBufferPointer<Double>.allocate(capacity: records.blockCapacity)
        defer { values.deallocate() }
        let byteOrder = selection.byteOrder
        return try records.forEachBlock { bytes, count in
            for index in 0..<count {
                let raw = bytes.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self)
                values[index] = Double(bitPattern: byteOrder.hostValue(ofFileBytes: raw))
            }
            try body(UnsafeBufferPointer(rebasing: values[..<count]))
        }
    }
}
