import Glibc

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
