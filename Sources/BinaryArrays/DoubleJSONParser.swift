import FileIO

/// Reads the JSON that `dump-doubles --format json` writes, in constant memory: one array, or JSON
/// Lines of `{"file": NAME, "values": [...]}`; values as numbers, as the strings `"NaN"`,
/// `"Infinity"`, `"-Infinity"`, or as `{"value": V, "hex": "..."}` objects; rows as nested arrays.
/// Values come out in document order, rows flattened.
public struct DoubleJSONParser<Source: ByteSource> {
    private var cursor: TextCursor<Source>
    private let byteOrder: ByteOrder
    /// The text of the last string or number read, up to `maxTokenLength` bytes.
    private var token: [UInt8] = []
    private var tokenIsCut = false

    private static var maxTokenLength: Int { 1024 }
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

    /// Calls `body` with each value in order.
    public mutating func forEachValue(_ body: (Double) throws -> Void) throws {
        while let byte = try skipWhitespace() {
            switch byte {
            case UInt8(ascii: "["): try readArray(depth: 1, body)
            case UInt8(ascii: "{"): try readObject(depth: 1, body)
            default: throw unexpected("'[' or '{'")
            }
        }
    }

    private mutating func readArray(depth: Int, _ body: (Double) throws -> Void) throws {
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

    private mutating func readElement(depth: Int, _ body: (Double) throws -> Void) throws {
        switch try skipWhitespace() {
        case UInt8(ascii: "["): try readArray(depth: depth + 1, body)
        case UInt8(ascii: "{"): try readObject(depth: depth + 1, body)
        default: try body(readValue())
        }
    }

    /// `{"file": ..., "values": [...]}` or `{"value": ..., "hex": ...}`, members in any order.
    private mutating func readObject(depth: Int, _ body: (Double) throws -> Void) throws {
        guard depth <= Self.maxDepth else { throw DoubleTextError.tooDeep(line: cursor.line, column: cursor.column) }
        cursor.advance()
        var value: Double?
        var hex: (printed: UInt64, text: String, line: Int, column: Int)?
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
                let text = String(decoding: token, as: UTF8.self)
                guard !tokenIsCut, let printed = DoubleHex.printedBytes(token) else {
                    throw DoubleTextError.invalidHex(line: memberLine, column: memberColumn, token: text)
                }
                hex = (printed, text, memberLine, memberColumn)
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
                    guard let exact = DoubleHex.resolve(value, printed: hex.printed, preferred: byteOrder) else {
                        throw DoubleTextError.hexMismatch(line: hex.line, column: hex.column, hex: hex.text, value: "\(value)")
                    }
                    try body(exact)
                } else if let value {
                    try body(value)
                }
                return
            default: throw unexpected("',' or '}'")
            }
        }
    }

    /// A number, or one of the strings for NaN and the infinities.
    private mutating func readValue() throws -> Double {
        guard let first = try skipWhitespace() else { throw unexpected("a value") }
        let (line, column) = (cursor.line, cursor.column)
        if first == UInt8(ascii: "\"") {
            try readString()
            let text = String(decoding: token, as: UTF8.self)
            guard !tokenIsCut, let special = DoubleToken.specialValue("\"\(text)\"") else {
                throw DoubleTextError.invalidNumber(line: line, column: column, token: "\"\(text)\"")
            }
            return special
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
        let text = String(decoding: token, as: UTF8.self)
        // JSON has no words for numbers: `nan` and `inf` are text spellings, not JSON.
        guard !token.contains(where: isLetter) || token.allSatisfy(DoubleToken.isNumberCharacter) else {
            throw DoubleTextError.invalidNumber(line: line, column: column, token: text)
        }
        do {
            return try DoubleToken.value(of: token)
        } catch .notANumber {
            throw DoubleTextError.invalidNumber(line: line, column: column, token: text)
        } catch .outOfRange {
            throw DoubleTextError.outOfRange(line: line, column: column, token: text)
        }
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
