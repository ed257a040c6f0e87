/// Shortest round-trip decimal text for `Double`, written straight into a byte buffer.
///
/// The digits are those of the Schubfach algorithm (R. Giulietti, "The Schubfach way to render
/// doubles", 2020): the shortest decimal inside the rounding interval of the value, and of those
/// the closest to it. The layout is `Double.description`'s, byte for byte (`1.0`, `-0.0`, `1e-05`,
/// `1e+16`, `5e-324`, `inf`, `nan`), so the text parses back to the same bits, NaN payloads and
/// the sign of NaN aside: every NaN is written `nan`.
public enum ShortestDecimal {
    /// The most bytes `write` produces for one value (`-2.2250738585072014e-308`).
    public static let maxLength = 24

    /// Writes `value` at `buffer`, which must have room for `maxLength` bytes; returns the length.
    @inlinable
    public static func write(_ value: Double, to buffer: UnsafeMutablePointer<UInt8>) -> Int {
        let bits = value.bitPattern
        let isNegative = bits >> 63 != 0
        let biasedExponent = Int((bits >> 52) & 0x7FF)
        let fraction = bits & ((1 << 52) - 1)
        let (whole, afterSign) = writeSignOrWhole(isNegative: isNegative, isNonFinite: biasedExponent == 0x7FF,
                                                  isZero: biasedExponent == 0, fraction: fraction, to: buffer)
        if let whole { return whole }
        var cursor = afterSign
        let decimal = shortestDecimal(biasedExponent: biasedExponent, fraction: fraction)
        // Double.description switches to exponential notation above 2^53 and below 1e-4.
        let useExponential = (bits & ~(1 << 63)) > 0x4340_0000_0000_0000 || decimal.leadingExponent < -4
        if useExponential {
            cursor = writeExponential(decimal, to: cursor)
        } else {
            cursor = writePositional(decimal, to: cursor)
        }
        return cursor - buffer
    }

    /// Writes `value` as `Float.description` does (exponential above 2^24 and below 1e-4), the
    /// shortest digits that read back as the same `Float`; at most `maxLength` bytes.
    @inlinable
    public static func write(_ value: Float, to buffer: UnsafeMutablePointer<UInt8>) -> Int {
        let bits = value.bitPattern
        let isNegative = bits >> 31 != 0
        let biasedExponent = Int((bits >> 23) & 0xFF)
        let fraction = UInt64(bits & ((1 << 23) - 1))
        let (whole, afterSign) = writeSignOrWhole(isNegative: isNegative, isNonFinite: biasedExponent == 0xFF,
                                                  isZero: biasedExponent == 0, fraction: fraction, to: buffer)
        if let whole { return whole }
        var cursor = afterSign
        let (m2, e2) = biasedExponent != 0 ? ((1 << 23) | fraction, biasedExponent - 150) : (fraction, -149)
        var decimal = shortestDecimal(m2: m2, e2: e2, precision: 24, lowerBoundaryIsCloser: fraction == 0 && biasedExponent > 1)
        decimal.trimTrailingZeros()
        let useExponential = (bits & 0x7FFF_FFFF) > 0x4B80_0000 || decimal.leadingExponent < -4
        cursor = useExponential ? writeExponential(decimal, to: cursor) : writePositional(decimal, to: cursor)
        return cursor - buffer
    }

    public static func string(_ value: Float) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxLength) { buffer in
            let length = write(value, to: buffer.baseAddress!)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<length]), as: UTF8.self)
        }
    }

    /// Convenience for tests and diagnostics; the hot path writes bytes.
    public static func string(_ value: Double) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxLength) { buffer in
            let length = write(value, to: buffer.baseAddress!)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<length]), as: UTF8.self)
        }
    }

    /// Writes what needs no digits whole, returning its length: `nan` (whatever the sign),
    /// `inf`, `-inf`, `0.0`, `-0.0`; else only the sign, returning the cursor after it.
    @inlinable
    static func writeSignOrWhole(isNegative: Bool, isNonFinite: Bool, isZero: Bool, fraction: UInt64,
                                 to buffer: UnsafeMutablePointer<UInt8>) -> (whole: Int?, cursor: UnsafeMutablePointer<UInt8>) {
        if isNonFinite && fraction != 0 {
            buffer[0] = UInt8(ascii: "n")
            buffer[1] = UInt8(ascii: "a")
            buffer[2] = UInt8(ascii: "n")
            return (3, buffer)
        }
        var cursor = buffer
        if isNegative {
            cursor.pointee = UInt8(ascii: "-")
            cursor += 1
        }
        if isNonFinite || (isZero && fraction == 0) {
            let word: (UInt8, UInt8, UInt8) = isNonFinite ? (UInt8(ascii: "i"), UInt8(ascii: "n"), UInt8(ascii: "f"))
                                                          : (UInt8(ascii: "0"), UInt8(ascii: "."), UInt8(ascii: "0"))
            cursor[0] = word.0
            cursor[1] = word.1
            cursor[2] = word.2
            return (cursor + 3 - buffer, cursor)
        }
        return (nil, cursor)
    }
}

// MARK: - Digits

extension ShortestDecimal {
    /// significand × 10^exponent, with no trailing zeros in the significand.
    @usableFromInline
    struct Decimal {
        @usableFromInline var significand: UInt64
        @usableFromInline var exponent: Int
        @usableFromInline var digitCount: Int

        /// The power of ten of the first digit: the `E` of `d.ddd × 10^E`.
        @usableFromInline var leadingExponent: Int { exponent + digitCount - 1 }

        @usableFromInline
        mutating func trimTrailingZeros() {
            while significand % 10 == 0 {
                significand /= 10
                exponent += 1
                digitCount -= 1
            }
        }
    }

    @usableFromInline
    static func shortestDecimal(biasedExponent: Int, fraction: UInt64) -> Decimal {
        let (m2, e2) = biasedExponent != 0 ? ((1 << 52) | fraction, biasedExponent - 1075) : (fraction, -1074)
        var decimal = shortestDecimal(m2: m2, e2: e2, precision: 53, lowerBoundaryIsCloser: fraction == 0 && biasedExponent > 1)
        decimal.trimTrailingZeros()
        return decimal
    }

    /// The shortest digits of m2 × 2^e2 among those that read back to it in a binary format of
    /// `precision` significand bits (53 for `Double`, 24 for `Float`), trailing zeros left in.
    @usableFromInline
    static func shortestDecimal(m2: UInt64, e2: Int, precision: Int, lowerBoundaryIsCloser: Bool) -> Decimal {
        let (significand, exponent) = schubfach(m2: m2, e2: e2, precision: precision, lowerBoundaryIsCloser: lowerBoundaryIsCloser)
        return Decimal(significand: significand, exponent: exponent, digitCount: digitCount(significand))
    }

    /// The Schubfach digits of a finite, non-zero m2 × 2^e2 (m2 below 2^precision).
    @usableFromInline
    static func schubfach(m2: UInt64, e2: Int, precision: Int, lowerBoundaryIsCloser: Bool) -> (UInt64, Int) {
        // Integers below 2^precision are their own shortest form.
        if e2 <= 0 && e2 > -precision && m2 >> UInt64(precision - 1) != 0 {
            let shift = UInt64(-e2)
            if m2 & ((1 << shift) &- 1) == 0 {
                return (m2 >> shift, 0)
            }
        }

        let isEven = m2 & 1 == 0
        let cbl = 4 &* m2 &- 2 &+ (lowerBoundaryIsCloser ? 1 : 0)
        let cb = 4 &* m2
        let cbr = 4 &* m2 &+ 2

        let k = lowerBoundaryIsCloser ? floorLog10ThreeQuartersPow2(e2) : floorLog10Pow2(e2)
        let h = e2 + floorLog2Pow10(-k) + 1
        let index = 2 * (-k - minPowerOfTen)
        let (gHigh, gLow) = powersOfTen.withUnsafeBufferPointer { ($0[index], $0[index + 1]) }

        let vbl = roundToOdd(gHigh, gLow, cbl << UInt64(h))
        let vb = roundToOdd(gHigh, gLow, cb << UInt64(h))
        let vbr = roundToOdd(gHigh, gLow, cbr << UInt64(h))
        let lower = isEven ? vbl : vbl &+ 1
        let upper = isEven ? vbr : vbr &- 1

        let s = vb / 4
        if s >= 10 {
            // One digit shorter, if exactly one candidate lies in the rounding interval.
            let sp = s / 10
            let upInside = lower <= 40 &* sp
            let wpInside = 40 &* sp &+ 40 <= upper
            if upInside != wpInside {
                return (sp &+ (wpInside ? 1 : 0), k + 1)
            }
        }
        let uInside = lower <= 4 &* s
        let wInside = 4 &* s &+ 4 <= upper
        if uInside != wInside {
            return (s &+ (wInside ? 1 : 0), k)
        }
        // Both candidates round-trip: take the closer, and the even one on a tie.
        let mid = 4 &* s &+ 2
        let roundUp = vb > mid || (vb == mid && s & 1 != 0)
        return (s &+ (roundUp ? 1 : 0), k)
    }

    /// The upper 64 bits of g × cp (g 128-bit), with the bits below folded into the lowest (sticky).
    @inline(__always)
    static func roundToOdd(_ gHigh: UInt64, _ gLow: UInt64, _ cp: UInt64) -> UInt64 {
        let x = gLow.multipliedFullWidth(by: cp)
        let y = gHigh.multipliedFullWidth(by: cp)
        let (y0, carry) = y.low.addingReportingOverflow(x.high)
        let y1 = y.high &+ (carry ? 1 : 0)
        return y1 | (y0 > 1 ? 1 : 0)
    }

    @inline(__always)
    static func floorLog10Pow2(_ e: Int) -> Int { (e &* 1_262_611) >> 22 }

    @inline(__always)
    static func floorLog10ThreeQuartersPow2(_ e: Int) -> Int { (e &* 1_262_611 &- 524_031) >> 22 }

    @inline(__always)
    static func floorLog2Pow10(_ e: Int) -> Int { (e &* 1_741_647) >> 19 }

    @inline(__always)
    public static func digitCount(_ value: UInt64) -> Int {
        // bits × log10(2), then one comparison settles the estimate.
        if value < 10 { return 1 }
        let bits = 64 - value.leadingZeroBitCount
        let estimate = (bits &* 1233) >> 12
        return powersOfTenBelow20.withUnsafeBufferPointer { estimate + (value >= $0[estimate] ? 1 : 0) }
    }

    /// 10^0 ... 10^19.
    static let powersOfTenBelow20: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000,
        1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]
}

// MARK: - Layout

extension ShortestDecimal {
    /// `ddd.ddd`, `0.000ddd` or `ddd000.0`.
    @usableFromInline
    static func writePositional(_ decimal: Decimal, to cursor: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let leading = decimal.leadingExponent
        let count = decimal.digitCount
        if leading < 0 {
            // 0.000ddd
            let zeros = -leading - 1
            cursor[0] = UInt8(ascii: "0")
            cursor[1] = UInt8(ascii: ".")
            var position = cursor + 2
            for _ in 0..<zeros {
                position.pointee = UInt8(ascii: "0")
                position += 1
            }
            writeDigits(decimal.significand, count: count, to: position)
            return position + count
        }
        let integerDigits = leading + 1
        if integerDigits >= count {
            // ddd000.0
            writeDigits(decimal.significand, count: count, to: cursor)
            var position = cursor + count
            for _ in 0..<(integerDigits - count) {
                position.pointee = UInt8(ascii: "0")
                position += 1
            }
            position[0] = UInt8(ascii: ".")
            position[1] = UInt8(ascii: "0")
            return position + 2
        }
        // ddd.ddd: write the digits one place to the right, then move the integer part left.
        writeDigits(decimal.significand, count: count, to: cursor + 1)
        for i in 0..<integerDigits {
            cursor[i] = cursor[i + 1]
        }
        cursor[integerDigits] = UInt8(ascii: ".")
        return cursor + count + 1
    }

    /// `d.ddde+XX`, `de-XXX`.
    @usableFromInline
    static func writeExponential(_ decimal: Decimal, to cursor: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let count = decimal.digitCount
        var position: UnsafeMutablePointer<UInt8>
        if count == 1 {
            cursor.pointee = UInt8(truncatingIfNeeded: decimal.significand) &+ UInt8(ascii: "0")
            position = cursor + 1
        } else {
            writeDigits(decimal.significand, count: count, to: cursor + 1)
            cursor[0] = cursor[1]
            cursor[1] = UInt8(ascii: ".")
            position = cursor + count + 1
        }
        var exponent = decimal.leadingExponent
        position[0] = UInt8(ascii: "e")
        if exponent < 0 {
            position[1] = UInt8(ascii: "-")
            exponent = -exponent
        } else {
            position[1] = UInt8(ascii: "+")
        }
        position += 2
        if exponent >= 100 {
            position.pointee = UInt8(truncatingIfNeeded: exponent / 100) &+ UInt8(ascii: "0")
            position += 1
            exponent %= 100
        }
        writeTwoDigits(exponent, to: position)
        return position + 2
    }

    /// Writes exactly `count` decimal digits of `value`, most significant first.
    @inline(__always)
    public static func writeDigits(_ value: UInt64, count: Int, to start: UnsafeMutablePointer<UInt8>) {
        var value = value
        var end = start + count
        // Eight digits at a time in 32-bit arithmetic, which is cheaper than 64-bit division.
        while value >= 100_000_000 {
            let (quotient, remainder) = value.quotientAndRemainder(dividingBy: 100_000_000)
            var low = UInt32(truncatingIfNeeded: remainder)
            for _ in 0..<4 {
                let (q, r) = low.quotientAndRemainder(dividingBy: 100)
                end -= 2
                writeTwoDigits(Int(truncatingIfNeeded: r), to: end)
                low = q
            }
            value = quotient
        }
        while value >= 100 {
            let (quotient, remainder) = value.quotientAndRemainder(dividingBy: 100)
            end -= 2
            writeTwoDigits(Int(truncatingIfNeeded: remainder), to: end)
            value = quotient
        }
        if value >= 10 {
            end -= 2
            writeTwoDigits(Int(truncatingIfNeeded: value), to: end)
        } else {
            end -= 1
            end.pointee = UInt8(truncatingIfNeeded: value) &+ UInt8(ascii: "0")
        }
    }

    @inline(__always)
    static func writeTwoDigits(_ value: Int, to position: UnsafeMutablePointer<UInt8>) {
        digitPairs.withUnsafeBufferPointer { pairs in
            position[0] = pairs[value &* 2]
            position[1] = pairs[value &* 2 &+ 1]
        }
    }

    /// "00" "01" ... "99", for writing two digits a step.
    /// (A literal, so that it is static data with no lazy initialisation on the hot path.)
    static let digitPairs: [UInt8] = Array("00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899".utf8)
}
