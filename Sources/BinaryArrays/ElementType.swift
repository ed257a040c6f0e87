/// A numeric type of binary arrays: IEEE-754 binary64, binary32, binary16, bfloat16, and two's
/// complement and unsigned integers of 8 to 64 bits.
public enum ElementType: String, CaseIterable, Sendable {
    case f64, f32, f16, bf16, i8, i16, i32, i64, u8, u16, u32, u64

    /// Bytes a value.
    public var size: Int {
        switch self {
        case .f64, .i64, .u64: return 8
        case .f32, .i32, .u32: return 4
        case .f16, .bf16, .i16, .u16: return 2
        case .i8, .u8: return 1
        }
    }

    public var isFloatingPoint: Bool { self == .f64 || self == .f32 || self == .f16 || self == .bf16 }

    public var isSigned: Bool { self == .i8 || self == .i16 || self == .i32 || self == .i64 }

    /// The names `--type` takes, for messages.
    public static var list: String { allCases.map(\.rawValue).joined(separator: " ") }
}
