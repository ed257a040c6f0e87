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
