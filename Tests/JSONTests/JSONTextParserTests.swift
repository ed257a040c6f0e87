import Foundation
import Testing
@testable import JSON

/// A recipe's JSON text, read as RFC 8259 says, against Foundation's reader; and every way it can
/// be wrong named by its line and column.
@Suite struct JSONTextParserTests {
    static func parsed(_ text: String) throws -> JSONValue { try JSONTextParser.parse(Array(text.utf8)) }

    @Test func valuesAsFoundationReadsThem() throws {
        let text = #" {"a": [1, -2.5e3, 0.125, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"], "b": {"c": {}, "d": []}, "e": 12345678901234} "#
        let value = try Self.parsed(text)
        // Written back by our writer, read by Foundation: the same values.
        let ours = try JSONSerialization.jsonObject(with: Data(value.text.utf8)) as? NSDictionary
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary
        #expect(ours == theirs)
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members.map(\.name) == ["a", "b", "e"])
        #expect(members[2].value == .int(12345678901234))
    }

    @Test(arguments: [
        ("", "line 1, column 1: expected a value, found the end of the text"),
        ("{\"a\": 1,}", "line 1, column 9: expected a member's name in double quotes, found \"}\""),
        ("{\"a\": 1, \"a\": 2}", "line 1, column 10: expected each name once in an object (\"a\" is given twice)"),
        ("[1 2]", "line 1, column 4: expected ',' or ']', found \"2]\""),
        ("{\n  \"a\": tru\n}", "line 2, column 8: expected a value"),
        ("\"a\tb\"", "line 1, column 3: expected no control character in a string"),
        ("01", "line 1, column 1: expected a value, found \"01\""),
        ("1.", "line 1, column 3: expected digits after the decimal point"),
        ("1e999", "line 1, column 1: expected a number a double holds"),
        ("\"\\ud800\"", "line 1, column 8: expected a character, not a lone surrogate"),
        ("\"\\x\"", "line 1, column 3: expected an escape"),
        ("\"abc", "expected '\"' to end the string"),
    ])
    func mistakesAreNamedWhereTheyAre(text: String, message: String) {
        #expect {
            _ = try Self.parsed(text)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    /// A string that is not UTF-8 is an error, not U+FFFD; a byte order mark before the text is passed over.
    @Test func textIsUTF8() throws {
        #expect(throws: JSONSyntaxError.self) { _ = try JSONTextParser.parse([0x22, 0x61, 0xFF, 0x22]) }
        #expect(try JSONTextParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.int(1)]))
    }

    /// Nesting past the limit is an error, not a stack overflow.
    @Test func deepNestingIsRefused() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { _ = try Self.parsed(deep) }
        let fine = String(repeating: "[", count: JSONTextParser.maxDepth) + String(repeating: "]", count: JSONTextParser.maxDepth)
        #expect(throws: Never.self) { _ = try Self.parsed(fine) }
    }
}
