import JSON
import NumberText

/// The text of one field of a record: floating-point values as their shortest round-trip decimal
/// (f16 and bf16 through the `Float` they widen to exactly), integers exactly; and its bytes in hex.
enum FieldText {
    /// The most bytes one value's text takes (`-2.2250738585072014e-308`, `-9223372036854775808`).
    static let maxLength = ShortestDecimal.maxLength

    /// The field's bits as they stand in the file, made host-order, in the low bits.
    @inline(__always)
    static func bits(of field: RecordLayout.Field, in record: UnsafeRawPointer) -> UInt64 {
        let at = record + field.offset
        let little = field.byteOrder == .little
        switch field.type.size {
        case 8:
            let raw = at.loadUnaligned(as: UInt64.self)
            return little ? UInt64(littleEndian: raw) : UInt64(bigEndian: raw)
        case 4:
            let raw = at.loadUnaligned(as: UInt32.self)
            return UInt64(little ? UInt32(littleEndian: raw) : UInt32(bigEndian: raw))
        case 2:
            let raw = at.loadUnaligned(as: UInt16.self)
            return UInt64(little ? UInt16(littleEndian: raw) : UInt16(bigEndian: raw))
        default:
            return UInt64(at.load(as: UInt8.self))
        }
    }

    /// The half-precision value of `bits`, exactly, as a `Float`.
    @inline(__always)
    static func float(half bits: UInt16) -> Float {
        let sign = UInt32(bits & 0x8000) << 16
        let exponent = Int(bits >> 10 & 0x1F), fraction = UInt32(bits & 0x3FF)
        if exponent == 0x1F { return Float(bitPattern: sign | 0x7F80_0000 | fraction << 13) }
        if exponent == 0 {
            // Subnormal or zero: fraction × 2^-24, exact in Float.
            let magnitude = Float(fraction) * 0x1p-24
            return sign != 0 ? -magnitude : magnitude
        }
        return Float(bitPattern: sign | UInt32(exponent + 112) << 23 | fraction << 13)
    }

    /// The value as a `Double`, for statistics (exact for every type but 64-bit integers beyond 2^53).
    @inline(__always)
    static func double(of field: RecordLayout.Field, in record: UnsafeRawPointer) -> Double {
        let raw = bits(of: field, in: record)
        switch field.type {
        case .f64: return Double(bitPattern: raw)
        case .f32: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw)))
        case .f16: return Double(float(half: UInt16(truncatingIfNeeded: raw)))
        case .bf16: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw) << 16))
        case .i8: return Double(Int8(truncatingIfNeeded: raw))
        case .i16: return Double(Int16(truncatingIfNeeded: raw))
        case .i32: return Double(Int32(truncatingIfNeeded: raw))
        case .i64: return Double(Int64(bitPattern: raw))
        case .u8, .u16, .u32, .u64: return Double(raw)
        }
    }

    /// Writes the value; in JSON, NaN and the infinities as the strings "NaN", "Infinity", "-Infinity".
    @inline(__always)
    static func write(_ field: RecordLayout.Field, in record: UnsafeRawPointer, json: Bool,
                      to cursor: UnsafeMutablePointer<UInt8>) -> Int {
        let raw = bits(of: field, in: record)
        switch field.type {
        case .f64:
            let value = Double(bitPattern: raw)
            return json ? JSONNumber.write(value, to: cursor) : ShortestDecimal.write(value, to: cursor)
        case .f32: return writeFloat(Float(bitPattern: UInt32(truncatingIfNeeded: raw)), json: json, to: cursor)
        case .f16: return writeFloat(float(half: UInt16(truncatingIfNeeded: raw)), json: json, to: cursor)
        case .bf16: return writeFloat(Float(bitPattern: UInt32(truncatingIfNeeded: raw) << 16), json: json, to: cursor)
        case .i8: return writeSigned(Int64(Int8(truncatingIfNeeded: raw)), to: cursor)
        case .i16: return writeSigned(Int64(Int16(truncatingIfNeeded: raw)), to: cursor)
        case .i32: return writeSigned(Int64(Int32(truncatingIfNeeded: raw)), to: cursor)
        case .i64: return writeSigned(Int64(bitPattern: raw), to: cursor)
        case .u8, .u16, .u32, .u64: return writeUnsigned(raw, to: cursor)
        }
    }

    @inline(__always)
    private static func writeFloat(_ value: Float, json: Bool, to cursor: UnsafeMutablePointer<UInt8>) -> Int {
        // JSON's text of a non-finite Float is that of the Double it widens to.
        json && !value.isFinite ? JSONNumber.write(Double(value), to: cursor) : ShortestDecimal.write(value, to: cursor)
    }

    @inline(__always)
    private static func writeSigned(_ value: Int64, to cursor: UnsafeMutablePointer<UInt8>) -> Int {
        guard value < 0 else { return writeUnsigned(UInt64(value), to: cursor) }
        cursor.pointee = UInt8(ascii: "-")
        return 1 + writeUnsigned(value.magnitude, to: cursor + 1)
    }

    @inline(__always)
    static func writeUnsigned(_ value: UInt64, to cursor: UnsafeMutablePointer<UInt8>) -> Int {
        let count = ShortestDecimal.digitCount(value)
        ShortestDecimal.writeDigits(value, count: count, to: cursor)
        return count
    }

    /// The field's bytes in file order, two uppercase hex digits each.
    @inline(__always)
    static func writeHex(_ field: RecordLayout.Field, in record: UnsafeRawPointer, to cursor: UnsafeMutablePointer<UInt8>) -> Int {
        let bytes = record + field.offset
        for index in 0..<field.type.size {
            let byte = bytes.load(fromByteOffset: index, as: UInt8.self)
            let high = byte >> 4, low = byte & 0xF
            cursor[2 * index] = high < 10 ? high &+ UInt8(ascii: "0") : high &+ (UInt8(ascii: "A") &- 10)
            cursor[2 * index + 1] = low < 10 ? low &+ UInt8(ascii: "0") : low &+ (UInt8(ascii: "A") &- 10)
        }
        return 2 * field.type.size
    }
}
