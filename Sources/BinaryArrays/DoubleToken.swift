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
        let text = String(decoding: token, as: UTF8.self)
        if let special = specialValue(text) { return special }
        guard token.allSatisfy(isNumberCharacter), token.contains(where: isDigit), let value = Double(text) else {
            throw .notANumber
        }
        // Zero from a non-zero significand is an underflow, as infinity from digits is an overflow.
        let significandIsNonZero = token.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            .contains { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }
        if value.isInfinite || (value == 0 && significandIsNonZero) { throw .outOfRange }
        return value
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
