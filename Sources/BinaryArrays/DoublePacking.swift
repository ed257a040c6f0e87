import FileIO

/// Reads numbers as text from sources and writes them as binary64 in a byte order: `pack-doubles`.
public struct DoublePacking {
    private let byteOrder: ByteOrder
    private let layout: DoubleTextLayout
    private let output: BufferedOutput
    public private(set) var valueCount = 0

    /// `layout` says what a text or csv input holds besides values; JSON is known by its first byte.
    public init(byteOrder: ByteOrder, layout: DoubleTextLayout = DoubleTextLayout(), output: BufferedOutput) {
        self.byteOrder = byteOrder
        self.layout = layout
        self.output = output
    }

    /// Appends the values of one text source. Stops at the first token that is not a number.
    public mutating func pack(_ source: InputFile) throws {
        // A call with the concrete type: inside this module the parsers are specialized for it
        // (called generically from another module, each byte went through generic metadata).
        try packText(source)
    }

    public mutating func pack<Source: ByteSource>(_ source: Source) throws {
        try packText(source)
    }

    private mutating func packText<Source: ByteSource>(_ source: Source) throws {
        var cursor = TextCursor(source: source)
        // Numbers never start with '[' or '{': the first byte tells JSON from a list.
        while let byte = try cursor.peek(), byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A {
            cursor.advance()
        }
        let startsJSON = try cursor.peek().map { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{") } ?? false
        let byteOrder = byteOrder
        let output = output
        var count = 0
        let append = { (value: Double) throws in
            let (slot, _) = try output.reserve(8)
            UnsafeMutableRawPointer(slot).storeBytes(of: byteOrder.fileBytes(ofHostValue: value.bitPattern),
                                                     as: UInt64.self)
            output.commit(upTo: slot + 8)
            count += 1
        }
        if startsJSON {
            var parser = DoubleJSONParser(cursor: cursor, byteOrder: byteOrder)
            try parser.forEachValue(append)
        } else {
            var parser = DoubleTextParser(cursor: cursor, layout: layout, byteOrder: byteOrder)
            try parser.forEachValue(append)
        }
        valueCount += count
    }
}
