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
    /// Where the budget is another process's (a sandboxed worker's is its parent's, shared by all
    /// the run's workers): what is reserved is asked of it, and given back to it.
    private let lender: Lender?

    /// Reserving from another process: `borrow` waits for `bytes` and returns a token for them (nil:
    /// they can never be had), `giveBack` returns the token's bytes.
    public struct Lender: Sendable {
        public let borrow: @Sendable (_ bytes: Int) -> Int?
        public let giveBack: @Sendable (_ token: Int) -> Void

        public init(borrow: @escaping @Sendable (Int) -> Int?, giveBack: @escaping @Sendable (Int) -> Void) {
            self.borrow = borrow
            self.giveBack = giveBack
        }
    }

    public init(total: Int, lender: Lender? = nil) {
        self.total = total
        self.lender = lender
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
        /// The lender's token, when the bytes are another process's.
        private let token: Int?

        fileprivate init(budget: MemoryBudget, bytes: Int, token: Int? = nil) {
            self.budget = budget
            self.bytes = bytes
            self.token = token
        }

        deinit {
            if let token { budget.lender?.giveBack(token) } else { budget.give(bytes) }
        }
    }

    /// Waits until `bytes` fit beside what the other jobs hold, and holds them; nil when they can
    /// never fit (more than the whole budget).
    public func reserve(_ bytes: Int) -> Reservation? {
        guard bytes <= total else { return nil }
        if let lender {
            return lender.borrow(bytes).map { Reservation(budget: self, bytes: bytes, token: $0) }
        }
        return reserve(bytes, waitingAtMost: .infinity)
    }

    /// As `reserve`, waiting at most `seconds` for the others to give back what `bytes` need; nil
    /// then too.
    public func reserve(_ bytes: Int, waitingAtMost seconds: Double) -> Reservation? {
        guard bytes >= 0, bytes <= total else { return nil }
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let whole = seconds.isFinite ? min(seconds, 1e9) : 1e9
        deadline.tv_sec += Int(whole)
        deadline.tv_nsec += Int((whole - whole.rounded(.down)) * 1e9)
        if deadline.tv_nsec >= 1_000_000_000 { deadline.tv_sec += 1; deadline.tv_nsec -= 1_000_000_000 }
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while reserved + bytes > total {
            if pthread_cond_timedwait(released, lock, &deadline) == ETIMEDOUT && reserved + bytes > total { return nil }
        }
        reserved += bytes
        return Reservation(budget: self, bytes: bytes)
    }

    private func give(_ bytes: Int) {
        pthread_mutex_lock(lock)
        reserved -= bytes
        lastRelease = Self.now()
        pthread_cond_broadcast(released)
        pthread_mutex_unlock(lock)
    }

    // Waiters that poll (`reserve(_:waitingAtMost:)` again and again: a worker's request, answered
    // while its other messages are read) say when they began, so that a budget that is stuck can
    // be told from one that is busy. Guarded by `lock`.
    private var lastRelease = MemoryBudget.now()
    private var waiters: [Int: Double] = [:]
    private var nextWaiter = 0

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Notes a waiter that begins now; its number, for `endWaiting` and `givesUp`.
    public func beginWaiting() -> Int {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        nextWaiter += 1
        waiters[nextWaiter] = Self.now()
        return nextWaiter
    }

    public func endWaiting(_ waiter: Int) {
        pthread_mutex_lock(lock)
        waiters[waiter] = nil
        pthread_mutex_unlock(lock)
    }

    /// Whether `waiter` must give up: nothing was given back for `seconds` since it began to wait
    /// (every holder is itself waiting, or keeps what it holds), and it is the waiter that began
    /// last. Ending the last only breaks a cycle of jobs that each hold what another waits for,
    /// while the one that waited first, whom the others were keeping waiting, is served when it
    /// ends; a waiter behind a job that holds the memory and works on is never given up, for that
    /// job's own deadline bounds how long it holds it.
    public func givesUp(_ waiter: Int, after seconds: Double) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard let began = waiters[waiter], Self.now() - max(began, lastRelease) > seconds else { return false }
        return waiters.values.allSatisfy { $0 <= began }
    }
}
