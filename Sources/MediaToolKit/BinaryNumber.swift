/// The order of a number's bytes in a file or buffer.
public enum Endianness: String, Sendable, CaseIterable, Codable {
    case little
    case big
}

/// A fixed-size number `BinaryArray` reads: IEEE 754 `Double`, `Float` and `Float16`, and the
/// integers of 8 to 64 bits. Read from any address (no alignment needed), in either byte order.
public protocol BinaryNumber: Sendable {
    /// The number whose bytes start at `pointer`, stored in `endianness`.
    static func load(from pointer: UnsafeRawPointer, _ endianness: Endianness) -> Self
}

extension BinaryNumber where Self: FixedWidthInteger {
    @inlinable @inline(__always)
    public static func load(from pointer: UnsafeRawPointer, _ endianness: Endianness) -> Self {
        let raw = pointer.loadUnaligned(as: Self.self)
        return endianness == .little ? Self(littleEndian: raw) : Self(bigEndian: raw)
    }
}

extension Int8: BinaryNumber {}
extension Int16: BinaryNumber {}
extension Int32: BinaryNumber {}
extension Int64: BinaryNumber {}
extension UInt8: BinaryNumber {}
extension UInt16: BinaryNumber {}
extension UInt32: BinaryNumber {}
extension UInt64: BinaryNumber {}

extension Double: BinaryNumber {
    @inlinable @inline(__always)
    public static func load(from pointer: UnsafeRawPointer, _ endianness: Endianness) -> Double {
        Double(bitPattern: UInt64.load(from: pointer, endianness))
    }
}

extension Float: BinaryNumber {
    @inlinable @inline(__always)
    public static func load(from pointer: UnsafeRawPointer, _ endianness: Endianness) -> Float {
        Float(bitPattern: UInt32.load(from: pointer, endianness))
    }
}

extension Float16: BinaryNumber {
    @inlinable @inline(__always)
    public static func load(from pointer: UnsafeRawPointer, _ endianness: Endianness) -> Float16 {
        Float16(bitPattern: UInt16.load(from: pointer, endianness))
    }
}
