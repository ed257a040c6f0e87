/// Decimal to binary: the double nearest to a decimal significand times a power of ten, found from
/// the same table of 128-bit powers of ten that `ShortestDecimal` writes with.
public enum DecimalToBinary {
    /// Eisel and Lemire's method (Lemire, "Number Parsing at a Gigabyte per Second", 2021): the
    /// nearest double to `significand` x 10^`power`, from the top bits of the significand times a
    /// 128-bit truncation of the power of ten, or nil where those bits cannot decide (then the
    /// caller asks strtod). The truncation errs low by less than one unit of its last bit, so the
    /// true product lies at most one unit above the one computed: only when every bit below the
    /// ones kept is set can the truth differ, and only then is more looked at.
    public static func nearest(_ significand: UInt64, timesTenToThe power: Int) -> Double? {
        // Below the table, or where the result is subnormal (handled by strtod): both rare.
        guard power >= ShortestDecimal.minPowerOfTen, power <= 308 else { return nil }
        // 10^-4 ... 10^-1 are inexact in the table, yet a significand of 16 to 19 digits times one
        // can fall exactly between two doubles: such ties are strtod's to break.
        guard !(-4 ... -1).contains(power) else { return nil }
        let (truncatedHigh, truncatedLow) = truncatedPowerOfTen(power)
        let leadingZeros = significand.leadingZeroBitCount
        let normalised = significand << leadingZeros
        var (high, low) = normalised.multipliedFullWidth(by: truncatedHigh)
        // 55 bits are kept: 53 of the double, a rounding bit and one for the normalisation.
        let belowKept: UInt64 = 0x1FF
        if high & belowKept == belowKept {
            let refinement = normalised.multipliedFullWidth(by: truncatedLow).high
            let (sum, carry) = low.addingReportingOverflow(refinement)
            low = sum
            if carry { high &+= 1 }
            // Exact where the power of five fits in 128 bits (10^0 ... 10^55); elsewhere the
            // unknown bits below may still carry into the ones kept.
            if low == UInt64.max && !(0...55).contains(power) { return nil }
        }
        let upperBit = Int(high >> 63)
        let shift = upperBit + 64 - 52 - 3
        var mantissa = high >> UInt64(shift)
        // floor(power x log2(10)) + 63, the binary exponent of the normalised power of ten.
        let binaryPower = ((152_170 + 65_536) * power) >> 16 + 63
        var biasedExponent = binaryPower + upperBit - leadingZeros + 1023
        guard biasedExponent > 0 else { return nil }
        // A tie (exactly halfway between two doubles) is possible only where the product is exact
        // (10^0 ... 10^23 here): it rounds to the even one; everything else rounds half up.
        if low <= 1, (0...23).contains(power), mantissa & 3 == 1, mantissa << UInt64(shift) == high {
            mantissa &= ~1
        }
        mantissa += mantissa & 1
        mantissa >>= 1
        if mantissa >= (2 << 52) {
            mantissa = 1 << 52
            biasedExponent += 1
        }
        guard biasedExponent < 0x7FF else { return .infinity }
        return Double(bitPattern: UInt64(biasedExponent) << 52 | (mantissa & ~(1 << 52)))
    }

    /// 10^`exponent` normalised to 128 bits (2^127 <= value < 2^128) and rounded down. The table
    /// holds each rounded down plus one, as the shortest-decimal writer needs.
    @inline(__always)
    static func truncatedPowerOfTen(_ exponent: Int) -> (high: UInt64, low: UInt64) {
        let row = 2 * (exponent - ShortestDecimal.minPowerOfTen)
        let high = ShortestDecimal.powersOfTen[row], low = ShortestDecimal.powersOfTen[row + 1]
        return low == 0 ? (high - 1, UInt64.max) : (high, low - 1)
    }
}
