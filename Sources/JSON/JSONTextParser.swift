import Failures
/// JSON text (RFC 8259) read into a `JSONValue`: a recipe or settings file a user wrote. Objects
/// keep their members in order; a name given twice is an error, since which one counts is
/// otherwise a guess. Depth and size are bounded, so no text can exhaust the stack.
public struct JSONTextParser {
    public static let maxDepth = 64

    private let bytes: [UInt8]
    private var offset = 0

    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONTextParser(bytes: bytes)
        // A byte order mark, which editors write and RFC 8259 lets a reader ignore.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.offset = 3 }
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        if parser.offset < bytes.count { throw parser.error(expected: "the end of the text") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < Self.maxDepth else { throw error(expected: "at most \(Self.maxDepth) nested arrays and objects") }
        guard offset < bytes.count else { throw error(expected: "a value") }
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            offset += 1
            var members: [JSONMember] = []
            var names: Set<String> = []
            skipSpace()
            if peek(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                skipSpace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error(expected: "a member's name in double quotes") }
                let nameOffset = offset
                let name = try string()
                guard names.insert(name).inserted else {
                    offset = nameOffset
                    throw error(expected: "each name once in an object (\"\(name)\" is given twice)")
                }
                skipSpace()
                guard peek(UInt8(ascii: ":")) else { throw error(expected: "':' after the name") }
                skipSpace()
                members.append(JSONMember(name, try value(depth: depth + 1)))
                skipSpace()
            } while peek(UInt8(ascii: ","))
            guard peek(UInt8(ascii: "}")) else { throw error(expected: "',' or '}'") }
            return .object(members)
        case UInt8(ascii: "["):
            offset += 1
            var values: [JSONValue] = []
            skipSpace()
            if peek(UInt8(ascii: "]")) { return .array(values) }
            repeat {
                skipSpace()
                values.append(try value(depth: depth + 1))
                skipSpace()
            } while peek(UInt8(ascii: ","))
            guard peek(UInt8(ascii: "]")) else { throw error(expected: "',' or ']'") }
            return .array(values)
        case UInt8(ascii: "\""):
            return .text(try string())
        case UInt8(ascii: "t"): return try word("true", .bool(true))
        case UInt8(ascii: "f"): return try word("false", .bool(false))
        case UInt8(ascii: "n"): return try word("null", .null)
        default:
            return try number()
        }
    }

    /// Consumes `byte` if it is next.
    private mutating func peek(_ byte: UInt8) -> Bool {
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    private mutating func skipSpace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    private mutating func word(_ text: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let expected = Array(text.utf8)
        guard bytes.count - offset >= expected.count, Array(bytes[offset..<(offset + expected.count)]) == expected else {
            throw error(expected: "a value")
        }
        offset += expected.count
        return value
    }

    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = offset
        func digits() -> Int {
            let first = offset
            while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
            return offset - first
        }
        _ = peek(UInt8(ascii: "-"))
        let integerDigits = digits()
        guard integerDigits > 0, !(integerDigits > 1 && bytes[offset - integerDigits] == UInt8(ascii: "0")) else {
            offset = start
            throw error(expected: "a value")
        }
        var isInteger = true
        if peek(UInt8(ascii: ".")) {
            isInteger = false
            guard digits() > 0 else { throw error(expected: "digits after the decimal point") }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            isInteger = false
            _ = peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-"))
            guard digits() > 0 else { throw error(expected: "digits in the exponent") }
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        if isInteger, let integer = Int(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else {
            offset = start
            throw error(expected: "a number a double holds")
        }
        return .double(double)
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        offset += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        var invalid = false
        func flush() {
            // UTF-8 or nothing: a byte that is not would otherwise become U+FFFD unseen.
            guard let text = String(validating: run, as: UTF8.self) else {
                invalid = true
                return
            }
            scalars.append(contentsOf: text.unicodeScalars)
            run.removeAll(keepingCapacity: true)
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                if invalid { throw error(expected: "UTF-8 text in the string that ends here") }
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                guard offset < bytes.count else { break }
                let escape = bytes[offset]
                offset += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): run.append(escape)
                case UInt8(ascii: "b"): run.append(0x08)
                case UInt8(ascii: "f"): run.append(0x0C)
                case UInt8(ascii: "n"): run.append(0x0A)
                case UInt8(ascii: "r"): run.append(0x0D)
                case UInt8(ascii: "t"): run.append(0x09)
                case UInt8(ascii: "u"):
                    var unit = try hexUnit()
                    if (0xD800..<0xDC00).contains(unit), bytes.count - offset >= 6,
                       bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") {
                        offset += 2
                        let low = try hexUnit()
                        guard (0xDC00..<0xE000).contains(low) else { throw error(expected: "a low surrogate after a high one") }
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(unit) else { throw error(expected: "a character, not a lone surrogate") }
                    scalars.append(scalar)
                default:
                    offset -= 1
                    throw error(expected: "an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
                }
            case 0..<0x20:
                offset -= 1
                throw error(expected: "no control character in a string (\\n, \\t... escape them)")
            default:
                run.append(byte)
            }
        }
        throw error(expected: "'\"' to end the string")
    }

    private mutating func hexUnit() throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - offset >= 4, let unit = UInt32(String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self), radix: 16) else {
            throw error(expected: "four hex digits after \\u")
        }
        offset += 4
        return unit
    }

    private func error(expected: String) -> JSONSyntaxError {
        let before = bytes[..<min(offset, bytes.count)]
        let line = before.filter { $0 == 0x0A }.count + 1
        let column = offset - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
        let found: String
        if offset >= bytes.count {
            found = "the end of the text"
        } else {
            let rest = String(decoding: bytes[offset..<min(bytes.count, offset + 12)], as: UTF8.self)
            found = JSONString.quoted(String(rest.prefix { $0 != "\n" }))
        }
        return JSONSyntaxError(line: line, column: column, expected: expected, found: found)
    }
}

/// Where JSON text stops being JSON, and what was expected there.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let expected: String
    public let found: String

    public var description: String { "line \(line), column \(column): expected \(expected), found \(found)" }
}

extension JSONSyntaxError: ClassifiedError {
    public var failureKind: FailureKind { .invalidRequest }
}
