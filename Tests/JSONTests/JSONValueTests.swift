import Foundation
import JSON
import Testing
import TestSupport

/// `JSONNumber` and `JSONValue`: numbers in their shortest round-trip digits, values as exact text.
@Suite struct JSONValueTests {
    /// RFC 8259's number grammar.
    static func isJSONNumber(_ text: String) -> Bool {
        text.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil
    }

    /// The significant digits of a number's text, without sign, point, exponent and outer zeros.
    static func digits(_ text: String) -> String {
        let mantissa = text.split(whereSeparator: { $0 == "e" || $0 == "E" }).first.map(String.init) ?? text
        let digits = mantissa.filter(\.isNumber)
        return String(digits.drop { $0 == "0" }.reversed().drop { $0 == "0" }.reversed())
    }

    static let samples: [Double] = {
        var values: [Double] = [0, 1, -1, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 100, 1e15, 1e16, 1e17, 1e21, 1e22, 1e-5, 1e-7,
                                123456789012345680, .leastNonzeroMagnitude, 2.2250738585072014e-308, .greatestFiniteMagnitude,
                                .leastNormalMagnitude, 9007199254740992, 0.1 + 0.2, 1.5, 29.97002997002997, -0.0]
        var random = SplitMix64(seed: 25)
        for _ in 0..<2000 { values.append(Double(bitPattern: random.next())) }
        return values.filter(\.isFinite)
    }()

    /// Valid JSON numbers, that read back as the same double, with no more digits than the shortest
    /// that do (Swift's own `description` is the reference for the digits).
    @Test func finiteNumbersAreShortestRoundTripJSON() {
        for value in Self.samples {
            let text = JSONNumber.text(value)
            #expect(Self.isJSONNumber(text), "\(value.bitPattern): \(text)")
            #expect(Double(text)?.bitPattern == value.bitPattern, "\(text) does not read back as \(value)")
            #expect(Self.digits(text) == Self.digits(value.description), "\(text) vs \(value.description)")
        }
    }

    @Test func numbersAsTheyRead() {
        #expect(JSONNumber.text(0.1) == "0.1")
        #expect(JSONNumber.text(1.0 / 3) == "0.3333333333333333")
        #expect(JSONNumber.text(0.1 + 0.2) == "0.30000000000000004")
        #expect(JSONNumber.text(.leastNonzeroMagnitude) == "5e-324")
    }

    /// The JSONNumber writer gives non-finite values as the protobuf JSON mapping's strings; a
    /// JSONValue gives them as null.
    @Test func nonFiniteNumbers() {
        #expect(JSONNumber.text(.nan) == #""NaN""#)
        #expect(JSONNumber.text(.infinity) == #""Infinity""#)
        #expect(JSONNumber.text(-.infinity) == #""-Infinity""#)
        #expect(JSONValue.double(.nan).text == "null")
        #expect(JSONValue.double(.infinity).text == "null")
        #expect(JSONValue.double(-.infinity).text == "null")
        #expect(JSONValue.float(.nan).text == "null")
        #expect(JSONValue.float(-.infinity).text == "null")
    }

    @Test func floatsByTheirOwnShortestDigits() {
        #expect(JSONValue.float(0.2).text == "0.2")
        #expect(JSONValue.double(Double(Float(0.2))).text == "0.20000000298023224")
        var random = SplitMix64(seed: 6)
        for _ in 0..<1000 {
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
            guard value.isFinite else { continue }
            let text = JSONValue.float(value).text
            #expect(Self.isJSONNumber(text), "\(text)")
            #expect(Float(text)?.bitPattern == value.bitPattern, "\(text) does not read back as \(value)")
            #expect(Self.digits(text) == Self.digits(value.description), "\(text) vs \(value.description)")
        }
    }

    @Test func integersExactly() {
        #expect(JSONValue.int(0).text == "0")
        #expect(JSONValue.int(-42).text == "-42")
        #expect(JSONValue.int(.max).text == "9223372036854775807")
        #expect(JSONValue.int(.min).text == "-9223372036854775808")
    }

    @Test func arraysAndObjectsAsCompactText() {
        #expect(JSONValue.array([]).text == "[]")
        #expect(JSONValue.object([]).text == "{}")
        #expect(JSONValue.array([.int(1), .null, .string("a"), .double(0.5)]).text == #"[1,null,"a",0.5]"#)
        let report = JSONValue.object([
            JSONMember("name", .string("a\"b")),
            JSONMember("size", .array([.int(640), .int(480)])),
            JSONMember("ratio", .double(.nan)),
            JSONMember("line\n", .object([JSONMember("x", .float(1.5))])),
        ])
        #expect(report.text == #"{"name":"a\"b","size":[640,480],"ratio":null,"line\n":{"x":1.5}}"#)
    }

    /// Members stay in the order given, duplicates included (a report's order is its readability).
    @Test func membersKeepTheirOrder() {
        let members = ["z", "a", "m", "a"].enumerated().map { JSONMember($0.element, .int($0.offset)) }
        #expect(JSONValue.object(members).text == #"{"z":0,"a":1,"m":2,"a":3}"#)
    }

    /// A nested value parses back as itself with Foundation's parser.
    @Test func foundationParsesNestedValues() throws {
        let value = JSONValue.object([
            JSONMember("list", .array([.double(1e300), .double(-2.5e-8), .int(7), .string("\u{1}é")])),
            JSONMember("empty", .object([])),
        ])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(value.text.utf8)) as? [String: Any])
        let list = try #require(parsed["list"] as? [Any])
        #expect((list[0] as? NSNumber)?.doubleValue == 1e300)
        #expect((list[1] as? NSNumber)?.doubleValue == -2.5e-8)
        #expect((list[2] as? NSNumber)?.intValue == 7)
        #expect(list[3] as? String == "\u{1}é")
        #expect((parsed["empty"] as? [String: Any])?.isEmpty == true)
    }
}
