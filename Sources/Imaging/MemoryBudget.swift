import Glibc

/// The memory a run's jobs share: `--max-memory` bounds the run, not each input, so that `-j 8` on
/// eight bombs just under the limit cannot take eight times it. A job reserves what its decoding
/// needs before it allocates; while others hold the rest it waits for them; what it needs alone
/// over the whole budget it never gets. (Unchecked Sendable: the count is guarded by the lock.)
public final class MemoryBudget: @unchecked Sendable {
    public let total: Int
    private var reserved = 0
    // Allocated, so that their addresses never move.
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let released = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init(total: Int) {
        self.total = total
        pthread_mutex_init(lock, nil)
        pthread_cond_init(released, nil)
    }

    deinit {
        pthread_cond_destroy(released)
        pthread_mutex_destroy(lock)
        released.deallocate()
        lock.deallocate()
    }

    /// What a job holds until it is released (when this goes away).
    public final class Reservation: @unchecked Sendable {
        private let budget: MemoryBudget
        public let bytes: Int

        fileprivate init(budget: MemoryBudget, bytes: Int) {
            self.budget = budget
            self.bytes = bytes
        }

        deinit { budget.give(bytes) }
    }

    /// Waits until `bytes` fit beside what the other jobs hold, and holds them; nil when they can
    /// never fit (more than the whole budget).
    public func reserve(_ bytes: Int) -> Reservation? {
        guard bytes <= total else { return nil }
        pthread_mutex_lock(lock)
        while reserved + bytes > total { pthread_cond_wait(released, lock) }
        reserved += bytes
        pthread_mutex_unlock(lock)
        return Reservation(budget: self, bytes: bytes)
    }

    private func give(_ bytes: Int) {
        pthread_mutex_lock(lock)
        reserved -= bytes
        pthread_cond_broadcast(released)
        pthread_mutex_unlock(lock)
    }
}
