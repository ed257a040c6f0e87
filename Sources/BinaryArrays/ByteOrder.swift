/// The order of a value's bytes in a file.
public enum ByteOrder: String, CaseIterable, Sendable {
    case little
    case big

    /// The host-order value of `raw`, 8 bytes loaded as they stand in the file.
    @inline(__always)
    func hostValue(ofFileBytes raw: UInt64) -> UInt64 {
        self == .little ? UInt64(littleEndian: raw) : UInt64(bigEndian: raw)
    }

    /// The 8 bytes of `bits` as they stand in a file in this order, loaded on the host.
    @inline(__always)
    func fileBytes(ofHostValue bits: UInt64) -> UInt64 {
        self == .little ? bits.littleEndian : bits.bigEndian
    }
}
