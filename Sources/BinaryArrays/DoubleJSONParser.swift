import FileIO

/// Reads the JSON that `dump-doubles --format json` writes, in constant memory: one array, or JSON
/// Lines of `{"file": NAME, "values": [...]}`; values as numbers, as the strings `"NaN"`,
/// `"Infinity"`, `"-Infinity"`, or as `{"value": V, "hex": "..."}` objects; rows as nested arrays.
/// Values come out in document order, rows flattened: as the tokens they are written as (so that
/// an integer past 2^53 or the hex of a narrower type is read by its field's own rules), or as doubles.
public struct DoubleJSONParser<Source: ByteSource> {
    private var cursor: TextCursor<Source>
    private let byteOrder: ByteOrder
    /// The text of the last string or number read, up to `maxTokenLength` bytes.
    private var token: [UInt8] = []
    private var tokenIsCut = false

    /// Longer tokens are not numbers (a double's exact decimal, 5e-324 written out, is 1077 characters);
    /// the limit keeps memory constant on hostile input.
    private static var maxTokenLength: Int { 4096 }
    /// Dumps nest three deep at most (object, array, row); more is not a dump, and recursion stays bounded.
    private static var maxDepth: Int { 16 }

    /// `byteOrder` is the order being written: the first one tried for hex bytes.
    public init(source: Source, byteOrder: ByteOrder = .little) {
        self.init(cursor: TextCursor(source: source), byteOrder: byteOrder)
    }

    init(cursor: TextCursor<Source>, byteOrder: ByteOrder) {
        self.cursor = cursor
        self.byteOrder = byteOrder
    }

    /// Calls `body` with each value in order, as a double (`pack-doubles`): its hex, where given,
    /// decides which of the values that print alike it is (NaN payloads).
    public mutating func forEachValue(_ body: (Double) throws -> Void) throws {
        let byteOrder = byteOrder
        try forEachToken { token in try body(DoubleHex.value(of: token, preferred: byteOrder)) }
    }

    /// Calls `body` with each value's token in order: a number's text, or a special value's string
    /// with its quotes (`"NaN"`), and the hex given beside it in an object.
    public mutating func forEachToken(_ body: (ValueToken) throws -> Void) throws {
        while let byte = try skipWhitespace() {
            switch byte {
            case UInt8(ascii: "["): try readArray(depth: 1, body)
            case UInt8(ascii: "{"): try readObject(depth: 1, body)
            default: throw unexpected("'[' or '{'")
            }
        }
    }

    private mutating func readArray(depth: Int, _ body: (ValueToken) throws -> Void) throws {
        guard depth <= Self.maxDepth else { throw DoubleTextError.tooDeep(line: cursor.line, column: cursor.column) }
        cursor.advance()
        if try skipWhitespace() == UInt8(ascii: "]") {
            cursor.advance()
            return
        }
        while true {
            try readElement(depth: depth, body)
            switch try skipWhitespace() {
            case UInt8(ascii: ","): cursor.advance()
            case UInt8(ascii: "]"): cursor.advance(); return
            default: throw unexpected("',' or ']'")
            }
        }
    }

    private mutating func readElement(depth: Int, _ body: (ValueToken) throws -> Void) throws {
        switch try skipWhitespace() {
        case UInt8(ascii: "["): try readArray(depth: depth + 1, body)
        case UInt8(ascii: "{"): try readObject(depth: depth + 1, body)
        default: try body(readValue())
        }
    }

    /// `{"file": ..., "values": [...]}` or `{"value": ..., "hex": ...}`, members in any order.
    private mutating func readObject(depth: Int, _ body: (ValueToken) throws -> Void) throws {
        guard depth <= Self.maxDepth else { throw DoubleTextError.tooDeep(line: cursor.line, column: cursor.column) }
        cursor.advance()
        var value: ValueToken?
        var hex: (text: [UInt8], line: Int, column: Int)?
        if try skipWhitespace() == UInt8(ascii: "}") {
            cursor.advance()
            return
        }
        while true {
            guard try skipWhitespace() == UInt8(ascii: "\"") else { throw unexpected("a member name") }
            let (nameLine, nameColumn) = (cursor.line, cursor.column)
            try readString()
            let name = tokenIsCut ? "" : String(decoding: token, as: UTF8.self)
            guard try skipWhitespace() == UInt8(ascii: ":") else { throw unexpected("':'") }
            cursor.advance()
            let (memberLine, memberColumn) = (cursor.line, cursor.column)
            switch name {
            case "file":
                guard try skipWhitespace() == UInt8(ascii: "\"") else { throw unexpected("a file name") }
                try readString()
            case "values":
                guard try skipWhitespace() == UInt8(ascii: "[") else { throw unexpected("an array of values") }
                try readArray(depth: depth + 1, body)
            case "value":
                value = try readValue()
            case "hex":
                guard try skipWhitespace() == UInt8(ascii: "\"") else { throw unexpected("a string of hex digits") }
                try readString()
                // Too long for any type's hex: the field's own check says how long it should be.
                guard !tokenIsCut else {
                    throw DoubleTextError.invalidHex(line: memberLine, column: memberColumn, token: String(decoding: token, as: UTF8.self), digits: 16)
                }
                hex = (token, memberLine, memberColumn)
            default:
                throw DoubleTextError.unexpectedMember(line: nameLine, column: nameColumn, name: name)
            }
            switch try skipWhitespace() {
            case UInt8(ascii: ","): cursor.advance()
            case UInt8(ascii: "}"):
                cursor.advance()
                if let hex {
                    guard let value else { throw DoubleTextError.unexpected(line: hex.line, column: hex.column,
                                                                            expected: "a value beside the hex", found: "none") }
                    try body(ValueToken(text: value.text, line: value.line, column: value.column, hex: hex))
                } else if let value {
                    try body(value)
                }
                return
            default: throw unexpected("',' or '}'")
            }
        }
    }

    /// A number, or one of the strings for NaN and the infinities (with its quotes), where it stands.
    /// JSON has no words for numbers: `nan` and `inf` are text spellings, not JSON.
    private mutating func readValue() throws -> ValueToken {
        guard let first = try skipWhitespace() else { throw unexpected("a value") }
        let (line, column) = (cursor.line, cursor.column)
        if first == UInt8(ascii: "\"") {
            try readString()
            let quoted = [UInt8(ascii: "\"")] + token + [UInt8(ascii: "\"")]
            guard !tokenIsCut, DoubleToken.specialValue(String(decoding: quoted, as: UTF8.self)) != nil else {
                throw DoubleTextError.invalidNumber(line: line, column: column, token: String(decoding: quoted, as: UTF8.self))
            }
            return ValueToken(text: quoted, line: line, column: column, hex: nil)
        }
        token.removeAll(keepingCapacity: true)
        while let byte = try cursor.peek(), DoubleToken.isNumberCharacter(byte) || isLetter(byte) {
            if token.count == Self.maxTokenLength {
                throw DoubleTextError.invalidNumber(line: line, column: column, token: String(decoding: token, as: UTF8.self))
            }
            token.append(byte)
            cursor.advance()
        }
        guard !token.isEmpty else { throw unexpected("a value") }
        guard !token.contains(where: isLetter) || token.allSatisfy(DoubleToken.isNumberCharacter) else {
            throw DoubleTextError.invalidNumber(line: line, column: column, token: String(decoding: token, as: UTF8.self))
        }
        return ValueToken(text: token, line: line, column: column, hex: nil)
    }

    /// Reads a string starting at its opening quote into `token`, escapes checked, its first
    /// `maxTokenLength` bytes kept (names and hex are short; a long file name is passed over).
    private mutating func readString() throws {
        token.removeAll(keepingCapacity: true)
        tokenIsCut = false
        cursor.advance()
        while true {
            guard let byte = try cursor.peek() else { throw unexpected("'\"'") }
            guard byte >= 0x20 else { throw unexpected("a character of a string") }
            cursor.advance()
            switch byte {
            case UInt8(ascii: "\""):
                return
            case UInt8(ascii: "\\"):
                guard let escaped = try cursor.peek() else { throw unexpected("an escape") }
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    cursor.advance()
                case UInt8(ascii: "u"):
                    cursor.advance()
                    for _ in 0..<4 {
                        guard let digit = try cursor.peek(), digit.isHexDigit else { throw unexpected("4 hex digits") }
                        cursor.advance()
                    }
                default:
                    throw unexpected("an escape")
                }
                // Only names, hex and the special values are compared, and none holds an escape.
                keep(UInt8(ascii: "\\"))
            default:
                keep(byte)
            }
        }
    }

    private mutating func keep(_ byte: UInt8) {
        if token.count < Self.maxTokenLength { token.append(byte) } else { tokenIsCut = true }
    }

    /// The next byte that is not JSON whitespace, not moved past; nil at the end.
    private mutating func skipWhitespace() throws -> UInt8? {
        while let byte = try cursor.peek() {
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return byte }
            cursor.advance()
        }
        return nil
    }

    private mutating func unexpected(_ expected: String) -> DoubleTextError {
        let found: String
        if let byte = try? cursor.peek() {
            found = byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : byteDescription(byte)
        } else {
            found = "the end"
        }
        return DoubleTextError.unexpected(line: cursor.line, column: cursor.column, expected: expected, found: found)
    }
}

private func byteDescription(_ byte: UInt8) -> String {
    "byte 0x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
}

@inline(__always)
private func isLetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
}

private extension UInt8 {
    var isHexDigit: Bool {
        (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9")) || ((self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "f"))
    }
}
