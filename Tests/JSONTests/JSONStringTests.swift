import FileIO
import Foundation
import JSON
import Testing
import TestSupport

/// `JSONString.quoted`: RFC 8259 string literals, checked against hand-written literals from the
/// RFC's grammar, and, for file names that are not UTF-8, against Python's own JSON parser and
/// `os.fsencode`, as the module's documentation promises.
@Suite struct JSONStringTests {
    @Test func plainTextIsQuotedAsItIs() {
        #expect(JSONString.quoted("") == #""""#)
        #expect(JSONString.quoted("photo 1.jpg") == #""photo 1.jpg""#)
    }

    @Test func quoteAndBackslashAreEscaped() {
        #expect(JSONString.quoted(#"a"b\c"#) == #""a\"b\\c""#)
        #expect(JSONString.quoted(#"\""#) == #""\\\"""#)
        // The solidus may stay as it is (RFC 8259, section 7).
        #expect(JSONString.quoted("a/b") == #""a/b""#)
    }

    @Test func controlCharactersAreEscaped() {
        #expect(JSONString.quoted("\n\r\t") == #""\n\r\t""#)
        // Every other character below U+0020 as \u with four hex digits.
        #expect(JSONString.quoted("\u{0}") == #""\u0000""#)
        #expect(JSONString.quoted("\u{8}\u{C}") == #""\u0008\u000C""#)
        #expect(JSONString.quoted("\u{1B}[0m") == #""\u001B[0m""#)
        #expect(JSONString.quoted("\u{1F}") == #""\u001F""#)
        // DEL and everything above U+001F need no escape.
        #expect(JSONString.quoted("\u{7F}") == "\"\u{7F}\"")
        for value in UInt32(0)..<0x20 {
            let quoted = JSONString.quoted(String(Unicode.Scalar(value)!))
            #expect(!quoted.unicodeScalars.contains { $0.value < 0x20 }, "U+\(String(value, radix: 16)) written raw")
        }
    }

    @Test func nonASCIITextStaysUnescaped() {
        #expect(JSONString.quoted("été 🌅") == "\"été 🌅\"")
        #expect(JSONString.quoted("\u{2028}") == "\"\u{2028}\"")
    }

    /// Every control character, quote and backslash reads back as itself through an independent parser.
    @Test func foundationParsesEveryEscapeBack() throws {
        var text = "\"\\/"
        for value in UInt32(0)..<0x20 { text.unicodeScalars.append(Unicode.Scalar(value)!) }
        text += "é🌅\u{7F}"
        let literal = "[" + JSONString.quoted(text) + "]"
        let parsed = try JSONSerialization.jsonObject(with: Data(literal.utf8)) as? [String]
        #expect(parsed == [text])
    }

    /// A name's bytes that are not UTF-8 stand as U+10FF80 + n in paths (`PathBytes`) and as the
    /// lone surrogates \uDC80 to \uDCFF in JSON.
    @Test func nonUTF8BytesOfANameAreLoneSurrogates() {
        let name = PathBytes.string([0x66, 0x80, 0xFF, 0x2E, 0x6A, 0x70, 0x67])
        #expect(JSONString.quoted(name) == #""f\uDC80\uDCFF.jpg""#)
        // Latin-1 é (0xE9) alone is not UTF-8; the UTF-8 é beside it is text.
        #expect(JSONString.quoted(PathBytes.string([0xE9, 0xC3, 0xA9])) == #""\uDCE9é""#)
    }

    static let python = "/usr/bin/python3"

    /// What Python's json and os.fsencode make of the literals: the names' own bytes, every one,
    /// including a real name that holds one of the stand-in scalars' UTF-8 bytes.
    @Test(.enabled(if: try Requirement.tool(python)))
    func pythonGetsTheNamesBytesBack() throws {
        let names: [[UInt8]] = [
            [0x66, 0x80, 0xFF],
            Array("plain.png".utf8),
            [0xE9, 0x74, 0xE9, 0x2E, 0x6A, 0x70, 0x67],
            Array("\u{10FF80}\u{10FFFF}x".utf8),  // valid UTF-8 of the stand-in scalars themselves
            [0xF4, 0x8F, 0xBE],  // a truncated sequence
            [0x0A, 0x22, 0x5C, 0xC3, 0x28],
        ]
        let literals = "[" + names.map { JSONString.quoted(PathBytes.string($0)) }.joined(separator: ",") + "]"
        let script = """
            import json, os, sys
            for name in json.loads(sys.stdin.read()):
                print(os.fsencode(name).hex())
            """
        let run = try ChildProcess.run(Self.python, ["-c", script], input: Data(literals.utf8), environment: ["LC_ALL": "C.UTF-8"])
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        let hex = String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(hex == names.map { $0.map { String(format: "%02x", $0) }.joined() })
    }
}
