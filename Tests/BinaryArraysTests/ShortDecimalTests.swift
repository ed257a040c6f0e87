import Foundation
import Glibc
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

    @Test(arguments: ["", "-", ".", "-.e5", "1.2.3", "1e", "1e+", "--1", "1-2", "e5", "12345678901234567890",
                      "1e00001", "nan", "1x", "1e-330", "4.9e-324", "123456789012345.6789"])
    func everythingElseStepsAside(text: String) {
        #expect(Self.fast(text) == nil)
    }

    /// Every double's shortest round-trip digits (up to 17, the text dump-doubles writes) and its
    /// 17-digit %.17g form read back bit for bit, over the whole range of exponents: Eisel and
    /// Lemire's path, checked against the C library's correctly rounded strtod.
    @Test func randomDoublesRoundTripThroughEiselLemire() {
        var random = SplitMix64(seed: 2319)
        var fast = 0
        for _ in 0..<300_000 {
            let value = Double(bitPattern: random.next() & ~(UInt64(1) << 63))
            guard value.isFinite, value.isNormal else { continue }
            for text in ["\(value)", String(format: "%.17g", value), String(format: "%.16e", -value), String(format: "%.18e", value)] {
                let expected = strtod(text, nil)
                guard let parsed = Self.fast(text) else { continue }
                fast += 1
                #expect(parsed.bitPattern == expected.bitPattern, "\(text): \(parsed) against \(expected)")
            }
        }
        #expect(fast > 1_000_000)
    }

    /// Random significands of 16 to 19 digits at every power of ten, and the hard cases: exact ties
    /// between two doubles (which round to even), values just either side of a tie, the largest
    /// doubles and beyond.
    @Test func longSignificandsAndTiesMatchStrtod() {
        var random = SplitMix64(seed: 1924)
        var texts = ["9007199254740993", "9007199254740995", "9007199254740992.5", "18014398509481987", "18014398509481986",
                     "9007199254740993e3", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
                     "2.2250738585072014e-308", "2.2250738585072011e-308", "7.2057594037927933e16", "4.6116860184273879e18",
                     "1.0000000000000001", "0.30000000000000004", "9999999999999999999", "9999999999999999999e-300",
                     "1e308", "1e309", "17976931348623157e292"]
        for _ in 0..<200_000 {
            let digits = 16 + Int(random.next() % 4)
            var significand = String(random.next() % 9 + 1)
            for _ in 1..<digits { significand += String(random.next() % 10) }
            let power = Int(random.next() % 620) - 310
            texts.append(significand + "e" + String(power))
        }
        // Ties: odd multiples of half a unit in the last place of a double, written out exactly.
        for _ in 0..<20_000 {
            let mantissa = (random.next() >> 11) | (1 << 52)
            let tie = mantissa * 2 + 1
            texts.append(String(tie) + "e0")
            let shifted = String(tie * 2) // 2^1 times the tie is an integer only while it fits
            if tie < UInt64.max / 4 { texts.append(shifted) }
        }
        var fast = 0
        for text in texts {
            let expected = strtod(text, nil)
            guard let parsed = Self.fast(text) else { continue }
            fast += 1
            #expect(parsed.bitPattern == expected.bitPattern, "\(text): \(parsed) against \(expected)")
        }
        #expect(fast > 200_000)
    }
}
