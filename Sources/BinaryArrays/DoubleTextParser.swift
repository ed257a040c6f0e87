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

    /// Tokens longer than this are not numbers; the limit keeps memory constant on hostile input.
    private static var maxTokenLength: Int { 1024 }

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
        var valuesInFile = 0
        var expectsHeader = layout.hasHeader
        var awaitingHex: (value: Double, line: Int, column: Int)?
        while try nextToken() {
            if tokenStartsLine && token == Array("==>".utf8) {
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
                guard let printed = DoubleHex.printedBytes(token) else {
                    throw DoubleTextError.invalidHex(line: tokenLine, column: tokenColumn, token: tokenText)
                }
                guard let exact = DoubleHex.resolve(pending.value, printed: printed, preferred: byteOrder) else {
                    throw DoubleTextError.hexMismatch(line: tokenLine, column: tokenColumn, hex: tokenText,
                                                      value: "\(pending.value)")
                }
                try body(exact)
                valuesInFile += 1
                continue
            }
            if tokenStartsLine && layout.hasIndex {
                let digits = token.last == UInt8(ascii: ":") ? token.dropLast() : token[...]
                guard Int(String(decoding: digits, as: UTF8.self)) == valuesInFile else {
                    throw DoubleTextError.unexpectedIndex(line: tokenLine, column: tokenColumn, token: tokenText,
                                                          expected: valuesInFile)
                }
                continue
            }
            let value = try tokenValue()
            if layout.hasHex {
                awaitingHex = (value, tokenLine, tokenColumn)
            } else {
                try body(value)
                valuesInFile += 1
            }
        }
        if let pending = awaitingHex { throw DoubleTextError.missingHex(line: pending.line, column: pending.column) }
    }

    private var tokenText: String { String(decoding: token, as: UTF8.self) }

    private func tokenValue() throws -> Double {
        do {
            return try DoubleToken.value(of: token)
        } catch .notANumber {
            throw DoubleTextError.invalidNumber(line: tokenLine, column: tokenColumn, token: tokenText)
        } catch .outOfRange {
            throw DoubleTextError.outOfRange(line: tokenLine, column: tokenColumn, token: tokenText)
        }
    }

    /// Reads the next token into `token`; false at the end of the text.
    private mutating func nextToken() throws -> Bool {
        while let byte = try cursor.peek(), isSeparator(byte) {
            if byte == UInt8(ascii: "\n") { atLineStart = true }
            cursor.advance()
        }
        guard try cursor.peek() != nil else { return false }
        token.removeAll(keepingCapacity: true)
        tokenLine = cursor.line
        tokenColumn = cursor.column
        tokenStartsLine = atLineStart
        atLineStart = false
        while let byte = try cursor.peek(), !isSeparator(byte) {
            if token.count == Self.maxTokenLength {
                throw DoubleTextError.invalidNumber(line: tokenLine, column: tokenColumn, token: tokenText)
            }
            token.append(byte)
            cursor.advance()
        }
        return true
    }
}

@inline(__always)
private func isSeparator(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") || (byte >= 0x09 && byte <= 0x0D)
}
