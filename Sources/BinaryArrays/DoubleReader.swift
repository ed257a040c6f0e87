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

/// Decodes consecutive IEEE-754 binary64 values from a byte source, block by block, in constant memory.
/// Bytes are loaded unaligned and swapped to host order explicitly, so any offset and host work.
public struct DoubleReader<Source: ByteSource> {
    public static var blockCapacity: Int { 8192 }

    private var source: Source
    private let selection: DoubleSelection

    public init(source: Source, selection: DoubleSelection) {
        self.source = source
        self.selection = selection
    }

    /// The bytes left in the source, when known up front.
    public var remainingLength: Int? { source.remainingLength }

    /// The trailing bytes the selection would meet, when the source's length is known up front:
    /// lets a caller refuse an input before printing anything for it.
    public func precheck() throws(DoubleDecodingError) -> DoubleDecodingError? {
        guard let length = source.remainingLength else { return nil }
        guard selection.offset <= length else {
            throw .offsetPastEnd(offset: selection.offset, length: length)
        }
        var region = length - selection.offset
        if let count = selection.count, count <= region / 8 { region = count * 8 }
        let trailing = region % 8
        guard trailing > 0 else { return nil }
        return .trailingBytes(count: trailing, offset: selection.offset + region - trailing, wholeValues: region / 8)
    }

    /// Calls `body` with each block of decoded values, in order. Returns the trailing-bytes problem
    /// met at the end, if any, for the caller to treat as an error or a warning.
    public mutating func forEachBlock(
        _ body: (UnsafeBufferPointer<Double>) throws -> Void
    ) throws -> DoubleDecodingError? {
        let skipped = try source.skip(selection.offset)
        guard skipped == selection.offset else {
            throw DoubleDecodingError.offsetPastEnd(offset: selection.offset, length: skipped)
        }
        let capacity = Self.blockCapacity
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity * 8, alignment: 8)
        let values = UnsafeMutableBufferPointer<Double>.allocate(capacity: capacity)
        defer {
            bytes.deallocate()
            values.deallocate()
        }
        var remainingValues = selection.count ?? Int.max
        var carried = 0  // bytes of a value split across reads, at the front of `bytes`
        var decodedValues = 0
        while remainingValues > 0 {
            // A whole buffer, or as far as the last value asked for.
            let wanted = remainingValues > bytes.count / 8 ? bytes.count : remainingValues * 8
            let read = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[carried..<wanted]))
            if read == 0 { break }
            let available = carried + read
            let count = available / 8
            if count > 0 {
                decode(UnsafeRawBufferPointer(bytes), count: count, into: values)
                try body(UnsafeBufferPointer(rebasing: values[..<count]))
                decodedValues += count
                remainingValues -= count
            }
            carried = available - count * 8
            if carried > 0 {
                bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + count * 8, byteCount: carried)
            }
        }
        guard carried > 0 else { return nil }
        return .trailingBytes(count: carried, offset: selection.offset + decodedValues * 8, wholeValues: decodedValues)
    }

    @inline(__always)
    private func decode(_ bytes: UnsafeRawBufferPointer, count: Int, into values: UnsafeMutableBufferPointer<Double>) {
        let byteOrder = selection.byteOrder
        for index in 0..<count {
            let raw = bytes.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self)
            values[index] = Double(bitPattern: byteOrder.hostValue(ofFileBytes: raw))
        }
    }
}
