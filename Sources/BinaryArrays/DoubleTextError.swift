import FileIO
import Failures
/// Why a text of numbers could not be read as doubles. Every case names where, lines and columns
/// counted from 1 (the column in bytes).
public enum DoubleTextError: Error, Equatable, CustomStringConvertible {
    /// The token is not a number.
    case invalidNumber(line: Int, column: Int, token: String)
    /// The token is a number beyond the range of a double (it would become infinity or zero).
    case outOfRange(line: Int, column: Int, token: String)
    /// `--index`: a line does not start with the index of its first value.
    case unexpectedIndex(line: Int, column: Int, token: String, expected: Int)
    /// `--hex`: the token after a value is not 16 hex digits.
    /// `digits`: two a byte of the value's type (16 for a double).
    case invalidHex(line: Int, column: Int, token: String, digits: Int)
    /// `--hex`: the bytes are not those of the value printed before them, in either byte order.
    case hexMismatch(line: Int, column: Int, hex: String, value: String)
    /// `--hex`: the text ends after a value, without its bytes.
    case missingHex(line: Int, column: Int)
    /// `--header`: the first line of a file is a value, not the names of the columns.
    case missingHeader(line: Int, column: Int, token: String)
    /// JSON: something else than the grammar allows here.
    case unexpected(line: Int, column: Int, expected: String, found: String)
    /// JSON: an object member that `dump-doubles` does not write.
    case unexpectedMember(line: Int, column: Int, name: String)
    /// JSON: arrays and objects nested deeper than any dump.
    case tooDeep(line: Int, column: Int)
    /// The token is not a value of `type` (a fraction for an integer type, a word).
    case invalidValue(line: Int, column: Int, token: String, type: String)
    /// The token is a number `type` cannot hold.
    case outOfTypeRange(line: Int, column: Int, token: String, type: String)
    /// A comma with no value before it, before a value (`1,,2`, `,2`): reading on would put every
    /// value after it in the wrong field.
    case emptyValue(line: Int, column: Int)

    public var description: String {
        switch self {
        case .invalidNumber(let line, let column, let token):
            return "line \(line), column \(column): not a number: \(Self.shown(token))\(Self.hint(token))"
        case .outOfRange(let line, let column, let token):
            return "line \(line), column \(column): out of the range of a double: \(Self.shown(token))"
        case .unexpectedIndex(let line, let column, let token, let expected):
            return "line \(line), column \(column): expected the index \(expected) (\(Setting.index)), found \(Self.shown(token))"
        case .invalidHex(let line, let column, let token, let digits):
            return "line \(line), column \(column): expected \(digits) hex digits after the value (\(Setting.hex)), found \(Self.shown(token))"
        case .hexMismatch(let line, let column, let hex, let value):
            return "line \(line), column \(column): the bytes \(hex) are not those of the value \(value) beside them"
        case .missingHex(let line, let column):
            return "line \(line), column \(column): the value has no hex bytes after it (\(Setting.hex))"
        case .missingHeader(let line, let column, let token):
            return "line \(line), column \(column): expected a line naming the columns (\(Setting.header)), found \(Self.shown(token))"
        case .unexpected(let line, let column, let expected, let found):
            return "line \(line), column \(column): expected \(expected), found \(found)"
        case .unexpectedMember(let line, let column, let name):
            return "line \(line), column \(column): unexpected member \(Self.shown(name)) (dump-doubles writes file, values, value and hex)"
        case .tooDeep(let line, let column):
            return "line \(line), column \(column): arrays nested too deep"
        case .invalidValue(let line, let column, let token, let type):
            return "line \(line), column \(column): not a value of type \(type): \(Self.shown(token))\(Self.hint(token))"
        case .outOfTypeRange(let line, let column, let token, let type):
            return "line \(line), column \(column): out of the range of \(type): \(Self.shown(token))"
        case .emptyValue(let line, let column):
            return "line \(line), column \(column): an empty value before this one (a comma with nothing before it): the values after it would shift fields"
        }
    }

    private static func shown(_ token: String) -> String {
        let limit = 40
        let text = token.count > limit ? String(token.prefix(limit)) + "..." : token
        return "'\(text)'"
    }

    /// The layout option a token suggests was given to `dump-doubles` but not here.
    private static func hint(_ token: String) -> String {
        if token.hasSuffix(":"), Int(token.dropLast()) != nil { return " (an index? add \(Setting.index))" }
        if DoubleHex.printedBytes(Array(token.utf8)) != nil || (token.count >= 4 && token.count % 2 == 0
            && token.allSatisfy(\.isHexDigit) && token.contains(where: \.isLetter) && token == token.uppercased()) {
            return " (hex bytes? add \(Setting.hex))"
        }
        if token == "index" || token.hasPrefix("index,") || token.hasPrefix("c0") { return " (a csv header? add \(Setting.header))" }
        if token == "==>" { return " (a file label must start its line)" }
        return ""
    }
}

extension DoubleTextError: ClassifiedError {
    public var failureKind: FailureKind { .damaged }
}
