import Glibc

/// A value's text made into the bits of a field's type: exactly for integers (with their range
/// checked), correctly rounded for floating point (f16 through `Float16`, bf16 rounded to nearest
/// even from the `Float`), and with `--hex`, the bytes the hex gives once checked against the value.
enum FieldValueParser {
    /// The value's bits, host order, in the low `field.type.size` bytes.
    static func bits(of value: ValueToken, field: RecordLayout.Field) throws -> UInt64 {
        let type = field.type
        // A double as pack-doubles has always read one, its hex included.
        if type == .f64 { return try DoubleHex.value(of: value, preferred: field.byteOrder).bitPattern }
        let (token, line, column) = (value.text, value.line, value.column)
        let hex = value.hex?.text
        // The common case first, without making a String of the token: it costs more than the parse.
        if hex == nil, !type.isFloatingPoint, let bits = integerBits(token, type: type) { return bits }
        let text = String(decoding: token, as: UTF8.self)
        let bits: UInt64
        switch type {
        case .f32, .f16, .bf16:
            let wide = try DoubleToken.value(of: token, line: line, column: column)
            let special = DoubleToken.specialValue(text)
            guard let value = special.map(Float.init) ?? Float(text) else {
                throw DoubleTextError.invalidValue(line: line, column: column, token: text, type: type.rawValue)
            }
            switch type {
            case .f32:
                guard (value.isFinite || !wide.isFinite) && (value != 0 || wide == 0) else {
                    throw DoubleTextError.outOfTypeRange(line: line, column: column, token: text, type: type.rawValue)
                }
                bits = UInt64(value.bitPattern)
            case .f16:
                let half = special.map(Float16.init) ?? Self.float16(nearest: wide, text: text)
                guard (half.isFinite || !wide.isFinite) && (half != 0 || wide == 0) else {
                    throw DoubleTextError.outOfTypeRange(line: line, column: column, token: text, type: type.rawValue)
                }
                bits = UInt64(half.bitPattern)
            default:
                let rounded = Self.bfloat16(value)
                let widened = Float(bitPattern: UInt32(rounded) << 16)
                guard (widened.isFinite || !wide.isFinite) && (widened != 0 || wide == 0) else {
                    throw DoubleTextError.outOfTypeRange(line: line, column: column, token: text, type: type.rawValue)
                }
                bits = UInt64(rounded)
            }
        case .i8, .i16, .i32, .i64:
            guard let value = Int64(text) else {
                throw Self.integerProblem(text, type: type, line: line, column: column)
            }
            // i64 holds every Int64; the others up to 2^(bits-1) - 1.
            let limit = type == .i64 ? Int64.max : Int64(1) << (type.size * 8 - 1) - 1
            guard value >= -limit - 1 || type == .i64, value <= limit else {
                throw DoubleTextError.outOfTypeRange(line: line, column: column, token: text, type: type.rawValue)
            }
            bits = UInt64(bitPattern: value) & Self.mask(type)
        case .f64:
            preconditionFailure("f64 values are read above")
        case .u8, .u16, .u32, .u64:
            guard let value = UInt64(text.hasPrefix("+") ? String(text.dropFirst()) : text) else {
                throw Self.integerProblem(text, type: type, line: line, column: column)
            }
            guard type == .u64 || value <= Self.mask(type) else {
                throw DoubleTextError.outOfTypeRange(line: line, column: column, token: text, type: type.rawValue)
            }
            bits = value
        }
        guard let hex = value.hex else { return bits }
        return try Self.exact(bits, hex: hex.text, field: field, value: text, line: hex.line, column: hex.column)
    }

    /// A decimal integer's bits when `type` holds it (an optional sign, then 1 to 19 digits); nil
    /// for anything else, which the general path then names.
    private static func integerBits(_ token: [UInt8], type: ElementType) -> UInt64? {
        var digits = token[...]
        var negative = false
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        guard (1...19).contains(digits.count) else { return nil }
        var magnitude: UInt64 = 0
        for byte in digits {
            guard DoubleToken.isDigit(byte) else { return nil }
            magnitude = magnitude * 10 + UInt64(byte - UInt8(ascii: "0"))
        }
        let bits = UInt64(type.size * 8)
        if type.isSigned {
            // -2^(bits-1) ... 2^(bits-1) - 1.
            let limit = UInt64(1) << (bits - 1)
            if negative ? magnitude > limit : magnitude >= limit { return nil }
            return (negative ? 0 &- magnitude : magnitude) & mask(type)
        }
        if negative { return nil }
        return type == .u64 || magnitude <= mask(type) ? magnitude : nil
    }

    private static func mask(_ type: ElementType) -> UInt64 {
        type.size == 8 ? UInt64.max : (UInt64(1) << (type.size * 8)) - 1
    }

    /// A whole number the type cannot hold (too big, or negative for an unsigned type), or not a
    /// whole number at all.
    private static func integerProblem(_ text: String, type: ElementType, line: Int, column: Int) -> DoubleTextError {
        let digits = text.utf8.drop { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }
        if !digits.isEmpty && digits.allSatisfy(DoubleToken.isDigit) {
            return .outOfTypeRange(line: line, column: column, token: text, type: type.rawValue)
        }
        return .invalidValue(line: line, column: column, token: text, type: type.rawValue)
    }

    /// The f16 nearest to the decimal `text`, from `wide`, the double nearest to it. Rounding the
    /// double again is right except where it lies exactly halfway between two f16 values and the
    /// decimal does not (`2049.0001` is nearer 2050 than 2048; its double is 2049.0001000000001,
    /// not a tie, but `2049.00000000000001` gives the double 2049, a tie, and the decimal is above
    /// it). There the C library's strtod, rounding down and then up, tells on which side of the
    /// double the decimal lies: equal bounds mean the decimal is the tie itself (then to even).
    static func float16(nearest wide: Double, text: String) -> Float16 {
        let rounded = Float16(wide)
        guard wide.isFinite, Double(rounded) != wide else { return rounded }
        // The f16 on the other side of `wide`; past the largest, the 2^16 that rounding to even
        // reaches before it overflows to infinity.
        let other: Float16 = rounded.isInfinite ? Float16.greatestFiniteMagnitude * rounded.sign.multiplier
            : (Double(rounded) < wide ? rounded.nextUp : rounded.nextDown)
        let roundedValue = rounded.isInfinite ? 65536 * Double(rounded.sign.multiplier) : Double(rounded)
        guard (roundedValue + Double(other)) / 2 == wide else { return rounded }
        let saved = fegetround()
        defer { fesetround(saved) }
        fesetround(FE_DOWNWARD)
        let below = strtod(text, nil)
        fesetround(FE_UPWARD)
        let above = strtod(text, nil)
        if below == above { return rounded }
        // The decimal lies strictly between `below` and `above`, one of which is the tie.
        let decimalIsAbove = below == wide
        return (decimalIsAbove == (Double(other) > wide)) ? other : rounded
    }

    /// bfloat16: the top half of the Float, rounded to nearest even; NaN kept a NaN.
    static func bfloat16(_ value: Float) -> UInt16 {
        let bits = value.bitPattern
        if value.isNaN { return UInt16(bits >> 16) | 0x40 }
        let rounding = UInt32(0x7FFF) + (bits >> 16 & 1)
        return UInt16((bits &+ rounding) >> 16)
    }

    /// The bytes the hex gives (in file order), once they are the value's in either byte order:
    /// NaN payloads come back exactly.
    private static func exact(_ bits: UInt64, hex: [UInt8], field: RecordLayout.Field, value: String, line: Int, column: Int) throws -> UInt64 {
        let size = field.type.size
        let hexText = String(decoding: hex, as: UTF8.self)
        guard hex.count == 2 * size, let printed = UInt64(hexText, radix: 16) else {
            throw DoubleTextError.invalidHex(line: line, column: column, token: hexText, digits: 2 * size)
        }
        let reversed = size == 1 ? printed : printed.byteSwapped >> UInt64(64 - 8 * size)
        let orders = field.byteOrder == .big ? [printed, reversed] : [reversed, printed]
        for candidate in orders {
            let matches: Bool
            switch field.type {
            case .f32: matches = Float(bitPattern: UInt32(bits)).isNaN ? Float(bitPattern: UInt32(candidate)).isNaN : candidate == bits
            case .f16, .bf16:
                let isNaN = { (raw: UInt64) in field.type == .f16 ? raw & 0x7C00 == 0x7C00 && raw & 0x3FF != 0
                    : raw & 0x7F80 == 0x7F80 && raw & 0x7F != 0 }
                matches = isNaN(bits) ? isNaN(candidate) : candidate == bits
            default: matches = candidate == bits
            }
            if matches { return candidate }
        }
        throw DoubleTextError.hexMismatch(line: line, column: column, hex: hexText, value: value)
    }
}

private extension FloatingPointSign {
    var multiplier: Float16 { self == .minus ? -1 : 1 }
}
