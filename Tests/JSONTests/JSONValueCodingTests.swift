import JSON
import Testing

/// Typed values through `JSONValueEncoder` and back through `JSONValueDecoder`, as a job's options
/// travel to a worker: equal after the trip, and the tree as Swift's synthesized coding spells it.
@Suite struct JSONValueCodingTests {
    enum Time: Codable, Equatable {
        case seconds(Double)
        case fraction(Double)
        case poster
    }

    struct Options: Codable, Equatable {
        var name = "a\u{0}b/é"
        var width: Int? = 320
        var height: Int?
        var depth: UInt8 = 16
        var ratio: Float = 0.75
        var times: [Time] = [.seconds(1.5), .fraction(0.25), .poster]
        var nested: [[Int]] = [[1, 2], [], [3]]
        var flags: Set<String> = ["x"]
        var huge = Int64.max
    }

    @Test func valuesComeBackEqual() throws {
        let options = Options()
        let tree = try JSONValueEncoder.encode(options)
        #expect(try JSONValueDecoder.decode(Options.self, from: tree) == options)
        var other = options
        other.height = 90
        other.width = nil
        other.times = []
        #expect(try JSONValueDecoder.decode(Options.self, from: JSONValueEncoder.encode(other)) == other)
    }

    @Test func theTreeIsSwiftsSpelling() throws {
        let tree = try JSONValueEncoder.encode(Time.seconds(2))
        #expect(tree == .object([JSONMember("seconds", .object([JSONMember("_0", .double(2))]))]))
        #expect(try JSONValueEncoder.encode(["a", "b"]) == .array([.text("a"), .text("b")]))
    }

    @Test func mismatchesAreErrorsThatSayWhere() throws {
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Int.self, from: .double(1.5)) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(UInt8.self, from: .int(300)) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Options.self, from: .object([])) }
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder.decode([String: Int].self, from: .object([JSONMember("a", .int(1)), JSONMember("a", .int(2))]))
        }
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Time.self, from: .object([JSONMember("minutes", .object([]))])) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder.encode(UInt64.max) }
    }
}
