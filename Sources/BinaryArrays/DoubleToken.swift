import Glibc
import NumberText
import Failures

/// One number written as text: decimal, or one of the words for NaN and the infinities.
enum DoubleToken {
    enum Problem: Error {
        case notANumber
        case outOfRange
    }

    /// The value of `token`: a decimal (digits required; no hex floats, no words other than the
    /// special values), `nan`, `inf`, `infinity` with any sign and case, and the JSON strings
    /// `"NaN"`, `"Infinity"`, `"-Infinity"` with their quotes.
    static func value(of token: [UInt8]) throws(Problem) -> Double {
        if let exact = token.withUnsafeBufferPointer(shortDecimal) {
            // Digits past the largest double (9e308) are an overflow, as strtod's infinity is below.
            guard exact.isFinite else { throw .outOfRange }
            return exact
        }
        // One pass: only number characters, a digit among them, and whether the significand (before
        // any exponent) has a non-zero digit. Anything else may be a word for NaN or infinity.
        let scan = token.withUnsafeBufferPointer { bytes -> (isNumber: Bool, hasDigit: Bool, significandIsNonZero: Bool) in
            var hasDigit = false, significandIsNonZero = false, inExponent = false
            for byte in bytes {
                if isDigit(byte) {
                    hasDigit = true
                    if !inExponent && byte != UInt8(ascii: "0") { significandIsNonZero = true }
                } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                    inExponent = true
                } else if byte != UInt8(ascii: ".") && byte != UInt8(ascii: "+") && byte != UInt8(ascii: "-") {
                    return (false, hasDigit, significandIsNonZero)
                }
            }
            return (true, hasDigit, significandIsNonZero)
        }
        guard scan.isNumber else {
            if let special = specialValue(String(decoding: token, as: UTF8.self)) { return special }
            throw .notANumber
        }
        let significandIsNonZero = scan.significandIsNonZero
        guard scan.hasDigit, let value = parsed(token) else { throw .notANumber }
        // Zero from a non-zero significand is an underflow, as infinity from digits is an overflow.
        if value.isInfinite || (value == 0 && significandIsNonZero) { throw .outOfRange }
        return value
    }

    /// A well-formed decimal of at most 19 significant digits (a significand that fits in 64 bits)
    /// read without the C library: Clinger's fast path where significand and power of ten are both
    /// exact in a double (at most 15 digits, a power of ten at most 22 either way: one multiplication
    /// or division is the correctly rounded value), else Eisel and Lemire's 128-bit multiplication
    /// by the power of ten, which decides all but a few inputs in one step. Both give exactly what
    /// strtod gives; nil for everything else (more digits, words, the rare undecided case), which
    /// strtod reads. Most measured data (`12.375`, `-0.5e3`, a double's 17 shortest digits) is such.
    static func shortDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let count = bytes.count
        var negative = false
        if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var significand: UInt64 = 0
        var digits = 0, fractionDigits = 0
        var seenPoint = false
        while index < count {
            let byte = bytes[index]
            if isDigit(byte) {
                // Leading zeros are no significant digits.
                if significand != 0 || byte != UInt8(ascii: "0") { digits += 1 }
                guard digits <= 19 else { return nil }
                significand = significand &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
                if seenPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                break
            }
            index += 1
        }
        // A digit is needed before any exponent ("." and "-.e5" are not numbers).
        guard index > (negative || (count > 0 && bytes[0] == UInt8(ascii: "+")) ? 1 : 0) + (seenPoint ? 1 : 0) else { return nil }
        var exponent = 0
        if index < count {
            guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return nil }
            index += 1
            var exponentNegative = false
            if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let start = index
            while index < count, isDigit(bytes[index]), index - start < 4 {
                exponent = exponent * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            guard index == count, index > start else { return nil }
            if exponentNegative { exponent = -exponent }
        }
        let power = exponent - fractionDigits
        let magnitude: Double
        if digits <= 15 && (-22...22).contains(power) {
            magnitude = power < 0 ? Double(significand) / Self.exactPowers[-power] : Double(significand) * Self.exactPowers[power]
        } else if significand == 0 {
            magnitude = 0
        } else {
            guard let product = DecimalToBinary.nearest(significand, timesTenToThe: power) else { return nil }
            magnitude = product
        }
        return negative ? -magnitude : magnitude
    }

    /// 10^0 ... 10^22: every one exact in a double.
    private static let exactPowers: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { product, _ in product * 10 }
    }

    /// The double nearest to the decimal `token` (number characters only), read whole by the C
    /// library's correctly rounded strtod, without making a String; nil when it is not all one
    /// number. strtod follows LC_NUMERIC, which the tool never sets: should a library set one with
    /// a decimal comma, the token is not read whole, and Swift's parser (C locale) decides.
    private static func parsed(_ token: [UInt8]) -> Double? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: token.count + 1) { text in
            token.withUnsafeBytes { bytes in UnsafeMutableRawBufferPointer(text).copyMemory(from: bytes) }
            text[token.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(text.baseAddress!, &end)
            return end == text.baseAddress! + token.count ? value : Double(String(decoding: token, as: UTF8.self))
        }
    }

    /// `value(of:)`, its problems put as errors naming where the token stands.
    static func value(of token: [UInt8], line: Int, column: Int) throws -> Double {
        do {
            return try value(of: token)
        } catch .notANumber {
            throw DoubleTextError.invalidNumber(line: line, column: column, token: String(decoding: token, as: UTF8.self))
        } catch .outOfRange {
            throw DoubleTextError.outOfRange(line: line, column: column, token: String(decoding: token, as: UTF8.self))
        }
    }

    static func specialValue(_ text: String) -> Double? {
        switch text.lowercased() {
        case "nan", "+nan", "-nan", "\"nan\"": return .nan
        case "inf", "+inf", "infinity", "+infinity", "\"infinity\"": return .infinity
        case "-inf", "-infinity", "\"-infinity\"": return -.infinity
        default: return nil
        }
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    @inline(__always)
    static func isNumberCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"),
             UInt8(ascii: "e"), UInt8(ascii: "E"):
            return true
        default:
            return false
        }
    }
}

extension DoubleToken.Problem: ClassifiedError {
    var failureKind: FailureKind { .damaged }
}
