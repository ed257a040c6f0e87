import Testing
import TestSupport
@testable import BinaryArrays

/// The fast path for short decimals must give exactly what Swift's own parser (strtod, correctly
/// rounded) gives, and step aside for everything it does not read.
@Suite struct ShortDecimalTests {
    static func fast(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer(DoubleToken.shortDecimal)
    }

    @Test func randomShortDecimalsMatchSwiftsParser() {
        var random = SplitMix64(seed: 23)
        var checked = 0
        for _ in 0..<200_000 {
            let integerDigits = Int(random.next() % 9)
            let fractionDigits = Int(random.next() % 9)
            var text = random.next() % 3 == 0 ? "-" : ""
            text += integerDigits == 0 ? "0" : String(random.next() % 1_000_000_000).prefix(integerDigits)
            if fractionDigits > 0 { text += "." + String(repeating: "0", count: Int(random.next() % 3)) + String(String(random.next()).prefix(fractionDigits)) }
            if random.next() % 4 == 0 { text += "e" + (random.next() % 2 == 0 ? "-" : "") + String(random.next() % 25) }
            let expected = Double(text)
            guard let value = Self.fast(text) else { continue }
            checked += 1
            #expect(value.bitPattern == expected?.bitPattern, "\(text): \(value) against \(String(describing: expected))")
        }
        // Most of them take the fast path: it is the path under test.
        #expect(checked > 100_000)
    }

    @Test(arguments: ["0", "-0", "+5", "5.", ".5", "12.375", "-0.5e3", "1e22", "123456789012345", "1E-22", "0.0000001"])
    func wellFormedShortDecimals(text: String) {
        #expect(Self.fast(text)?.bitPattern == Double(text)?.bitPattern)
    }

    @Test(arguments: ["", "-", ".", "-.e5", "1.2.3", "1e", "1e+", "--1", "1-2", "e5", "1234567890123456", "1e23",
                      "0.00000000000000000000001", "1e00001", "nan", "1x"])
    func everythingElseStepsAside(text: String) {
        #expect(Self.fast(text) == nil)
    }
}
