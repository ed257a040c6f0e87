/// One of N disjoint parts of a batch, chosen by a hash of each input's relative path, so that
/// machines given the same folders take parts that are disjoint and together complete, whatever
/// order or mount point each lists them in.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 0 ..< count.
    public let index: Int
    public let count: Int

    /// Reads `K/N`, with K from 0 to N - 1 (as Kubernetes' JOB_COMPLETION_INDEX counts).
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
              count >= 1, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    public var description: String { "\(index)/\(count)" }

    public func contains(_ input: BatchInput) -> Bool {
        Int(Self.fnv1a(input.relativePath) % UInt64(count)) == index
    }

    /// FNV-1a, 64 bits: the same on every machine and every run, unlike Swift's seeded Hasher.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
