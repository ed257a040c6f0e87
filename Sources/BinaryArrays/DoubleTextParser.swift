import FileIO

/// Reads numbers separated by whitespace or commas (the text and csv that `dump-doubles` writes, and
/// any such list), in constant memory. Besides the values: `==> NAME <==` lines that label each file
/// of a dump, and as its `DoubleTextLayout` says, an index starting each line, the hex bytes after
/// each value, and a header line naming the columns.
public struct DoubleTextParser<Source: ByteSource> {
    private var cursor: TextCursor<Source>
    private let layout: DoubleTextLayout
    private let byteOrder: ByteOrder
    private var token: [UInt8] = []
    private var tokenLine = 1
    private var tokenColumn = 1
    private var tokenStartsLine = true
    /// No token yet since the start or the last line end.
    private var atLineStart = true

    /// The token is `==>`, which starts the line naming each file of a dump (`==> NAME <==`);
    /// compared in place, as this runs for every line.
    private var tokenIsFileLabel: Bool {
        token.count == 3 && token[0] == UInt8(ascii: "=") && token[1] == UInt8(ascii: "=") && token[2] == UInt8(ascii: ">")
    }

    /// Tokens longer than this are not numbers; the limit keeps memory constant on hostile input.
    /// 4096: a double's exact decimal is at most 1077 characters (5e-324 written out), and such
    /// text is valid input.
    private static var maxTokenLength: Int { 4096 }

    /// `byteOrder` is the order being written: the first one tried for hex bytes.
    public init(source: Source, layout: DoubleTextLayout = DoubleTextLayout(), byteOrder: ByteOrder = .little) {
        self.init(cursor: TextCursor(source: source), layout: layout, byteOrder: byteOrder)
    }

    init(cursor: TextCursor<Source>, layout: DoubleTextLayout, byteOrder: ByteOrder) {
        self.cursor = cursor
        self.layout = layout
        self.byteOrder = byteOrder
    }

    /// Calls `body` with each value in order.
    public mutating func forEachValue(_ body: (Double) throws -> Void) throws {
        let byteOrder = byteOrder
        try forEachToken { token in try body(DoubleHex.value(of: token, preferred: byteOrder)) }
    }

    /// Calls `body` with each value's token in order: file labels, header lines and indexes (each
    /// line's first token, checked against the records so far, `valuesPerRecord` values a record)
    /// taken out, the hex after each value paired with it.
    public mutating func forEachToken(valuesPerRecord: Int = 1, _ body: (ValueToken) throws -> Void) throws {
        var valuesInFile = 0
        var expectsHeader = layout.hasHeader
        var awaitingHex: (text: [UInt8], line: Int, column: Int)?
        while try nextToken() {
            if tokenStartsLine && tokenIsFileLabel {
                try cursor.skipRestOfLine()
                valuesInFile = 0
                expectsHeader = layout.hasHeader
                continue
            }
            if expectsHeader {
                expectsHeader = false
                if (try? DoubleToken.value(of: token)) != nil {
                    throw DoubleTextError.missingHeader(line: tokenLine, column: tokenColumn, token: tokenText)
                }
                try cursor.skipRestOfLine()
                continue
            }
            if let pending = awaitingHex {
                awaitingHex = nil
                try body(ValueToken(text: pending.text, line: pending.line, column: pending.column,
                                    hex: (token, tokenLine, tokenColumn)))
                valuesInFile += 1
                continue
            }
            if tokenStartsLine && layout.hasIndex {
                let digits = token.last == UInt8(ascii: ":") ? token.dropLast() : token[...]
                let expected = valuesInFile / valuesPerRecord
                guard Int(String(decoding: digits, as: UTF8.self)) == expected else {
                    throw DoubleTextError.unexpectedIndex(line: tokenLine, column: tokenColumn, token: tokenText, expected: expected)
                }
                continue
            }
            if layout.hasHex {
                awaitingHex = (token, tokenLine, tokenColumn)
            } else {
                try body(ValueToken(text: token, line: tokenLine, column: tokenColumn, hex: nil))
                valuesInFile += 1
            }
        }
        if let pending = awaitingHex { throw DoubleTextError.missingHex(line: pending.line, column: pending.column) }
    }

    private var tokenText: String { String(decoding: token, as: UTF8.self) }

    /// Reads the next token into `token`; false at the end of the text.
    private mutating func nextToken() throws -> Bool {
        var sawLineEnd = false, followsEmptyValue = false
        let taken = try cursor.takeToken(into: &token, limit: Self.maxTokenLength, sawLineEnd: &sawLineEnd,
                                         followsEmptyValue: &followsEmptyValue, startLine: &tokenLine, startColumn: &tokenColumn)
        if sawLineEnd { atLineStart = true }
        guard let whole = taken else { return false }
        // The label of a dump's next file may follow the padded last row of the one before.
        if followsEmptyValue && !tokenIsFileLabel { throw DoubleTextError.emptyValue(line: tokenLine, column: tokenColumn) }
        tokenStartsLine = atLineStart
        atLineStart = false
        guard whole else { throw DoubleTextError.invalidNumber(line: tokenLine, column: tokenColumn, token: tokenText) }
        return true
    }
}
