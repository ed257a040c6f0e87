import Testing
@testable import NumberText
import TestSupport

@Suite struct ShortestDecimalTests {
    @Test(arguments: [
        (0.0, "0.0"), (-0.0, "-0.0"), (1.0, "1.0"), (-2.5, "-2.5"), (100.0, "100.0"),
        (0.1, "0.1"), (0.3, "0.3"), (1.0 / 3, "0.3333333333333333"), (0.0001, "0.0001"),
        (0.00001, "1e-05"), (9.999e-05, "9.999e-05"), (1e15, "1000000000000000.0"),
        (9007199254740992.0, "9007199254740992.0"), (9007199254740994.0, "9.007199254740994e+15"),
        (1e16, "1e+16"), (1e22, "1e+22"), (1e23, "1e+23"), (.leastNonzeroMagnitude, "5e-324"),
        (2.2250738585072014e-308, "2.2250738585072014e-308"),
        (-Double(bitPattern: 0x000F_FFFF_FFFF_FFFF), "-2.225073858507201e-308"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (Double.infinity, "inf"), (-Double.infinity, "-inf"), (Double.nan, "nan"), (-Double.nan, "nan"),
    ])
    func knownValues(value: Double, expected: String) {
        #expect(ShortestDecimal.string(value) == expected)
    }

    /// Collects the first few values whose text differs from `Double.description`.
    struct Mismatches {
        private(set) var found: [String] = []

        mutating func check(_ value: Double) {
            let ours = ShortestDecimal.string(value)
            if ours != value.description && found.count < 10 {
                found.append("\(value.bitPattern): \(ours) != \(value.description)")
            }
        }
    }

    @Test func matchesDescriptionOnRandomBitPatterns() {
        var generator = SplitMix64(seed: 0x5EED_0001)
        var mismatches = Mismatches()
        for _ in 0..<2_000_000 {
            mismatches.check(Double(bitPattern: generator.next()))
        }
        #expect(mismatches.found.isEmpty, "\(mismatches.found)")
    }

    /// Short decimals (few digits, every magnitude) are where a shorter candidate exists.
    @Test func matchesDescriptionOnShortDecimals() {
        var generator = SplitMix64(seed: 0x5EED_0002)
        var mismatches = Mismatches()
        for _ in 0..<1_000_000 {
            let digits = Int.random(in: 1...999_999, using: &generator)
            let exponent = Int.random(in: -330...310, using: &generator)
            guard let value = Double("\(digits)e\(exponent)") else { continue }
            for candidate in [value, value.nextUp, value.nextDown] {
                mismatches.check(candidate)
            }
        }
        #expect(mismatches.found.isEmpty, "\(mismatches.found)")
    }

    /// Powers of two sit where the lower boundary is closer; subnormals where the exponent is fixed.
    @Test func matchesDescriptionAtExponentEdges() {
        var mismatches = Mismatches()
        for biasedExponent in 0..<0x7FF as Range<UInt64> {
            for fraction: UInt64 in [0, 1, 2, 3, (1 << 52) - 1, (1 << 51), 0x8_0000_0000_0001] {
                for sign: UInt64 in [0, 1] {
                    mismatches.check(Double(bitPattern: sign << 63 | biasedExponent << 52 | fraction))
                }
            }
        }
        #expect(mismatches.found.isEmpty, "\(mismatches.found)")
    }

    @Test func everyOutputParsesBackToTheSameBits() {
        var generator = SplitMix64(seed: 0x5EED_0003)
        for _ in 0..<100_000 {
            let value = Double(bitPattern: generator.next())
            guard !value.isNaN else { continue }
            #expect(Double(ShortestDecimal.string(value))?.bitPattern == value.bitPattern)
        }
    }
}

@Suite struct DigitTests {
    @Test func digitCountAtEveryPowerOfTen() {
        #expect(ShortestDecimal.digitCount(0) == 1)
        #expect(ShortestDecimal.digitCount(UInt64.max) == 20)
        var power: UInt64 = 1
        for digits in 1...19 {
            #expect(ShortestDecimal.digitCount(power) == digits)
            #expect(ShortestDecimal.digitCount(power - 1) == max(1, digits - 1))
            #expect(ShortestDecimal.digitCount(power * 10 - 1) == digits)
            power *= 10
        }
    }
}

/// `Float`'s shortest text, as `Float.description` prints it.
@Suite struct ShortestFloatTests {
    @Test func randomBitPatternsPrintAsFloatDescription() {
        var generator = SplitMix64(seed: 32)
        var mismatches: [String] = []
        var patterns: [UInt32] = (0..<300_000).map { _ in UInt32(truncatingIfNeeded: generator.next()) }
        // Every exponent's edges, subnormals, powers of two, the integer and exponential thresholds.
        for exponent: UInt32 in 0...254 {
            patterns += [exponent << 23, exponent << 23 | 1, exponent << 23 | 0x7F_FFFF]
        }
        patterns += [0x4B80_0000, 0x4B80_0001, 0x4B7F_FFFF, 0x38D1_B717, 0x38D1_B716, 1, 0x7F7F_FFFF, 0x8000_0001]
        for bits in patterns {
            let value = Float(bitPattern: bits)
            guard value.isFinite else { continue }
            let ours = ShortestDecimal.string(value)
            if ours != value.description && mismatches.count < 5 { mismatches.append("\(value.description) printed \(ours)") }
        }
        #expect(mismatches.isEmpty)
    }
}
