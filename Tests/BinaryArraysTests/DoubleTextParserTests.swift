import FileIO
import Testing
import TestSupport
@testable import BinaryArrays

@Suite struct DoubleTextParserTests {
    static func parse(_ text: String, stepLimit: Int = 3) throws -> [Double] {
        var parser = DoubleTextParser(source: TrickleSource(Array(text.utf8), stepLimit: stepLimit))
        var values: [Double] = []
        try parser.forEachValue { values.append($0) }
        return values
    }

    @Test func separatorsAndSpecialWords() throws {
        let values = try Self.parse("1,2 3\n\t4\r\n-0.0 NaN inf -INF Infinity \"-Infinity\" 1e-5,,")
        #expect(values.count == 11)
        #expect(values[0...3] == [1, 2, 3, 4])
        #expect(values[4].bitPattern == (-0.0).bitPattern)
        #expect(values[5].isNaN)
        #expect(values[6...9] == [.infinity, -.infinity, .infinity, -.infinity])
        #expect(values[10] == 1e-5)
    }

    /// Lines and columns stay right when tokens are cut across reads.
    @Test(arguments: 1...7)
    func errorPositionAcrossReads(stepLimit: Int) {
        #expect(throws: DoubleTextError.invalidNumber(line: 3, column: 4, token: "12a")) {
            try Self.parse("1 2\n3\n4, 12a 5\n", stepLimit: stepLimit)
        }
    }

    @Test func aHugeTokenIsRefusedWithoutGrowingMemory() {
        let token = String(repeating: "1", count: 5000)
        #expect(throws: DoubleTextError.self) { try Self.parse("0 " + token, stepLimit: 4096) }
    }
}

@Suite struct DoubleJSONParserTests {
    static func parse(_ text: String, stepLimit: Int = 3) throws -> [Double] {
        var parser = DoubleJSONParser(source: TrickleSource(Array(text.utf8), stepLimit: stepLimit))
        var values: [Double] = []
        try parser.forEachValue { values.append($0) }
        return values
    }

    /// Arrays, rows, value objects and JSON Lines, cut across reads at every step.
    @Test(arguments: 1...5)
    func everyShapeDumpDoublesWrites(stepLimit: Int) throws {
        let text = """
            {"file":"a \\"b\\" \\u00e9.bin","values":[1.5,"-Infinity",[2,3]]}
            {"values":[{"hex":"000000000000F03F","value":1},{"value":"NaN","hex":"010000000000F87F"}],"file":"x"}
            [ ] [ [ -0.0 ] , 4e-320 ]
            """
        let values = try Self.parse(text, stepLimit: stepLimit)
        #expect(values.count == 8)
        #expect(values[0...3] == [1.5, -.infinity, 2, 3])
        #expect(values[4] == 1)
        #expect(values[5].bitPattern == 0x7FF8_0000_0000_0001)
        #expect(values[6].bitPattern == (-0.0).bitPattern)
        #expect(values[7] == Double(bitPattern: 0x0000_0000_0000_1FA0))  // 4e-320
    }

    @Test(arguments: [
        ("[1,2", DoubleTextError.unexpected(line: 1, column: 5, expected: "',' or ']'", found: "the end")),
        ("[1 2]", DoubleTextError.unexpected(line: 1, column: 4, expected: "',' or ']'", found: "'2'")),
        ("[1,nan]", DoubleTextError.invalidNumber(line: 1, column: 4, token: "nan")),
        ("[null]", DoubleTextError.invalidNumber(line: 1, column: 2, token: "null")),
        ("{\"count\":3}", DoubleTextError.unexpectedMember(line: 1, column: 2, name: "count")),
        ("[{\"value\":1,\"hex\":\"12\"}]", DoubleTextError.invalidHex(line: 1, column: 19, token: "12", digits: 16)),
        ("[1e999]", DoubleTextError.outOfRange(line: 1, column: 2, token: "1e999")),
        ("[\"a\u{1}\"]", DoubleTextError.unexpected(line: 1, column: 4, expected: "a character of a string", found: "byte 0x01")),
    ])
    func malformedJSONIsNamed(text: String, error: DoubleTextError) {
        #expect(throws: error) { try Self.parse(text) }
    }

    /// Nesting is bounded, so a hostile document cannot grow the stack.
    @Test func deepNestingIsRefused() {
        #expect(throws: DoubleTextError.tooDeep(line: 1, column: 17)) {
            try Self.parse(String(repeating: "[", count: 100_000))
        }
    }
}
