import FileIO

/// Reads numbers as text from sources and writes them as binary64 in a byte order: `pack-doubles`.
public struct DoublePacking {
    private let byteOrder: ByteOrder
    private let output: BufferedOutput
    public private(set) var valueCount = 0

    public init(byteOrder: ByteOrder, output: BufferedOutput) {
        self.byteOrder = byteOrder
        self.output = output
    }

    /// Appends the values of one text source. Stops at the first token that is not a number.
    public mutating func pack<Source: ByteSource>(_ source: Source) throws {
        var parser = DoubleTextParser(source: source)
        let byteOrder = byteOrder
        let output = output
        var count = 0
        try parser.forEachValue { value in
            let (cursor, _) = try output.reserve(8)
            UnsafeMutableRawPointer(cursor).storeBytes(of: byteOrder.fileBytes(ofHostValue: value.bitPattern),
                                                       as: UInt64.self)
            output.commit(upTo: cursor + 8)
            count += 1
        }
        valueCount += count
    }
}
