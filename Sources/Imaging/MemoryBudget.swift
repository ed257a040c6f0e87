import Glibc
import WorkerPool

/// The memory a run's jobs share: `--max-memory` bounds the run, not each input, so that `-j 8` on
/// eight bombs just under the limit cannot take eight times it. A job reserves what its decoding
/// needs before it allocates; while others hold the rest it waits for them; what it needs alone
/// over the whole budget it never gets.
///
/// A job reserves again and again (a video's index, then its frames), so two jobs can each hold
/// what the other waits for. Each job is a holder the budget knows; where every holder waits for
/// more and none gave any back for a while, the waiter holding the most gives up (`givesUp`): its
/// release frees the most, and a file whose index takes nearly the whole budget is the one ended,
/// never the photo queued beside it.
public final class MemoryBudget: Sendable {
    public let total: Int

    private struct State {
        var reserved = 0
        /// What each holder holds, where reservations said whose they are.
        var holdings: [Int: Int] = [:]
        var nextHolder = 0
        /// Where this budget is a share: how long it waited before it gave up, where it did.
        var starved: Double?
        /// When a waiting holder last gave memory back, and since when each holder waits: a
        /// budget that is stuck is told from one that is busy by them.
        var lastWaiterRelease = MemoryBudget.now()
        var waiters: [Int: Double] = [:]
    }

    private let state = ConditionLock(State())
    /// Where this budget is one job's share of another budget of this process (`share`): reserved
    /// there, as that job's, and given up on as `givesUp` says.
    private let sharing: (budget: MemoryBudget, holder: Int, stall: Double)?
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
        sharing = nil
    }

    private init(total: Int, sharing: (budget: MemoryBudget, holder: Int, stall: Double)) {
        self.total = total
        lender = nil
        self.sharing = sharing
    }

    /// One job's share of this budget, in this process: what it reserves is held here as that
    /// job's, up to `total` (the job's own limit); a wait that is stuck (`givesUp` after `stall`
    /// seconds) ends with no memory where this job holds the most of those waiting.
    public func share(total: Int, givingUpAfter stall: Double) -> MemoryBudget {
        // A share of a share is one of the budget itself: each holder is known where the memory is.
        if let sharing { return sharing.budget.share(total: min(total, self.total), givingUpAfter: stall) }
        return MemoryBudget(total: min(total, self.total), sharing: (self, newHolder(), stall))
    }

    /// How long this share waited before it gave up (`givesUp`), where it did: its job is over.
    public var starvedSeconds: Double? {
        state.withLock { $0.starved }
    }

    /// A number for a job's reservations, so that the budget knows what each job holds.
    public func newHolder() -> Int {
        state.withLock { state in
            state.nextHolder += 1
            return state.nextHolder
        }
    }

    /// What a job holds until it is released (when this goes away).
    public final class Reservation: Sendable {
        private let budget: MemoryBudget
        public let bytes: Int
        /// The lender's token, when the bytes are another process's.
        private let token: Int?
        /// Whose the bytes are, where the budget was told.
        private let holder: Int?

        fileprivate init(budget: MemoryBudget, bytes: Int, token: Int? = nil, holder: Int? = nil) {
            self.budget = budget
            self.bytes = bytes
            self.token = token
            self.holder = holder
        }

        deinit {
            if let token { budget.lender?.giveBack(token) } else { budget.give(bytes, from: holder) }
        }
    }

    /// Waits until `bytes` fit beside what the other jobs hold, and holds them; nil when they can
    /// never fit (more than the whole budget).
    public func reserve(_ bytes: Int) -> Reservation? {
        guard bytes <= total else { return nil }
        if let lender {
            return lender.borrow(bytes).map { Reservation(budget: self, bytes: bytes, token: $0) }
        }
        if let sharing {
            let asked = Self.now()
            guard let reservation = sharing.budget.reserve(bytes, for: sharing.holder, givingUpAfter: sharing.stall) else {
                state.withLock { $0.starved = Self.now() - asked }
                return nil
            }
            return reservation
        }
        return reserve(bytes, waitingAtMost: .infinity)
    }

    /// As `reserve`, for `holder`: a wait that `givesUp` ends returns nil.
    public func reserve(_ bytes: Int, for holder: Int, givingUpAfter stall: Double) -> Reservation? {
        if let reservation = reserve(bytes, for: holder, waitingAtMost: 0) { return reservation }
        beginWaiting(holder)
        defer { endWaiting(holder) }
        while !givesUp(holder, after: stall) {
            if let reservation = reserve(bytes, for: holder, waitingAtMost: Self.stallCheck) { return reservation }
        }
        return nil
    }

    /// How often a waiter that may give up looks whether it must.
    static let stallCheck = 0.05

    /// As `reserve`, waiting at most `seconds` for the others to give back what `bytes` need; nil
    /// then too. `holder`: whose the bytes are, where a job has a number (`newHolder`).
    public func reserve(_ bytes: Int, for holder: Int? = nil, waitingAtMost seconds: Double) -> Reservation? {
        guard bytes >= 0, bytes <= total else { return nil }
        let total = self.total
        let fits = state.update(when: { $0.reserved + bytes <= total }, waitingAtMost: seconds) { state, fits in
            guard fits else { return false }
            state.reserved += bytes
            if let holder { state.holdings[holder, default: 0] += bytes }
            return true
        }
        return fits ? Reservation(budget: self, bytes: bytes, holder: holder) : nil
    }

    private func give(_ bytes: Int, from holder: Int?) {
        state.update { state in
            state.reserved -= bytes
            if let holder, let held = state.holdings[holder] { state.holdings[holder] = held > bytes ? held - bytes : nil }
            // What a waiting holder gives back may let another waiter on; what a job that works on
            // gives back says nothing of a cycle of waiters (steady traffic beside them kept one
            // from ever being broken).
            if let holder, state.waiters[holder] != nil { state.lastWaiterRelease = Self.now() }
        }
    }

    fileprivate static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Notes that `holder` waits, from now if it did not already.
    public func beginWaiting(_ holder: Int) {
        state.withLock { state in
            if state.waiters[holder] == nil { state.waiters[holder] = Self.now() }
        }
    }

    public func endWaiting(_ holder: Int) {
        state.withLock { $0.waiters[holder] = nil }
    }

    /// Whether waiting `holder` must give up: every job that holds memory waits for more (none
    /// works on to give it back), none of them gave any back for `seconds` since this one began
    /// to wait, and of the waiters it holds the most (the latest to wait, of equals). Ending it
    /// breaks a cycle of jobs that each hold what another waits for, and frees the most. A waiter
    /// behind a job that holds the memory and works on is never given up, with a deadline or
    /// without one (`--sandbox off`): that job gives it back when it is done.
    public func givesUp(_ holder: Int, after seconds: Double) -> Bool {
        state.withLock { state in
            guard let began = state.waiters[holder], Self.now() - max(began, state.lastWaiterRelease) > seconds,
                  state.holdings.allSatisfy({ $0.value == 0 || state.waiters[$0.key] != nil }) else { return false }
            let (holdings, waiters) = (state.holdings, state.waiters)
            let rank = { (waiter: Int) in (holdings[waiter] ?? 0, waiters[waiter] ?? 0, waiter) }
            return waiters.keys.allSatisfy { $0 == holder || rank($0) < rank(holder) }
        }
    }
}
