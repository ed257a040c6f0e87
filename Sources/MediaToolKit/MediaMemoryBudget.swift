import Synchronization
internal import Imaging

/// The memory the library's calls share, as the command line's jobs share `--max-memory`: each
/// call holds what its decoding needs before it allocates and gives it back when done; while
/// others hold the rest it waits; what it needs alone over the whole budget it never gets.
/// Calls given one budget (`MediaConfiguration.budget`) share it; by default every call of the
/// process with the same `maxMemory` shares one budget of that size.
public final class MediaMemoryBudget: Sendable {
    /// The budget's size in bytes.
    public let bytes: Int
    let budget: MemoryBudget

    /// A budget of `bytes` (at least 1).
    public init(bytes: Int) {
        self.bytes = max(1, bytes)
        budget = MemoryBudget(total: self.bytes)
    }

    /// The process's budget of `bytes`: one a size, made on first use.
    static func shared(bytes: Int) -> MediaMemoryBudget {
        shared.withLock { budgets in
            if let budget = budgets[bytes] { return budget }
            let budget = MediaMemoryBudget(bytes: bytes)
            budgets[bytes] = budget
            return budget
        }
    }

    private static let shared = Mutex<[Int: MediaMemoryBudget]>([:])
}
