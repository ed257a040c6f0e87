import FileIO

/// Reads consecutive records of `stride` bytes from a byte source, block by block, in constant
/// memory: whole records only, a record split across reads carried to the next, `offset` bytes
/// passed over first and at most `count` records taken.
public struct RecordReader<Source: ByteSource> {
    private var source: Source
    private let stride: Int
    private let offset: Int
    private let count: Int?
    /// Records a block: about 64 KiB of them.
    let blockCapacity: Int

    public init(source: Source, stride: Int, offset: Int, count: Int?) {
        precondition(stride > 0)
        self.source = source
        self.stride = stride
        self.offset = offset
        self.count = count
        blockCapacity = max(1, 65_536 / stride)
    }

    /// The bytes left in the source, when known up front.
    public var remainingLength: Int? { source.remainingLength }

    /// The problem the selection would meet, when the source's length is known up front: lets a
    /// caller refuse an input before printing anything for it.
    public func precheck() throws(DoubleDecodingError) -> DoubleDecodingError? {
        guard let length = source.remainingLength else { return nil }
        guard offset <= length else { throw .offsetPastEnd(offset: offset, length: length) }
        var region = length - offset
        if let count, count <= region / stride { region = count * stride }
        let trailing = region % stride
        guard trailing > 0 else { return nil }
        return .trailingBytes(count: trailing, offset: offset + region - trailing, wholeValues: region / stride, size: stride)
    }

    /// Calls `body` with each block of whole records, in order. Returns the trailing-bytes problem
    /// met at the end, if any, for the caller to treat as an error or a warning.
    public mutating func forEachBlock(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws -> DoubleDecodingError? {
        let skipped = try source.skip(offset)
        guard skipped == offset else { throw DoubleDecodingError.offsetPastEnd(offset: offset, length: skipped) }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: blockCapacity * stride, alignment: 16)
        defer { bytes.deallocate() }
        var remaining = count ?? Int.max
        var carried = 0  // bytes of a record split across reads, at the front of `bytes`
        var decoded = 0
        while remaining > 0 {
            // A whole buffer, or as far as the last record asked for.
            let wanted = remaining > blockCapacity ? bytes.count : remaining * stride
            let read = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[carried..<wanted]))
            if read == 0 { break }
            let available = carried + read
            let records = available / stride
            if records > 0 {
                try body(UnsafeRawBufferPointer(rebasing: bytes[..<(records * stride)]), records)
                decoded += records
                remaining -= records
            }
            carried = available - records * stride
            if carried > 0 {
                bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + records * stride, byteCount: carried)
            }
        }
        guard carried > 0 else { return nil }
        return .trailingBytes(count: carried, offset: offset + decoded * stride, wholeValues: decoded, size: stride)
    }
}
