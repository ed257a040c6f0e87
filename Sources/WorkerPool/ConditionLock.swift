import Glibc

/// State behind a lock, with a condition its threads wait on for it to change: the one blocking
/// lock of the package beside `Synchronization`'s `Mutex` and `Atomic`. What modules wrote each of
/// their own (a pthread mutex and condition stored in a class and passed as `&mutex`, which Swift
/// may move; `DispatchSemaphore`; `NSLock`) is this.
///
/// The mutex and the condition are allocated, so that their addresses never move; waits are timed
/// on the monotonic clock, so that setting the time of day neither ends nor stretches them.
/// (Unchecked Sendable, as `Mutex` is: the state is reached only inside `withLock`, `update` and
/// the waits, each holding the lock, and it is handed in as `sending`.)
public final class ConditionLock<State>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state: State

    public init(_ state: sending State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// `body` with the state, no waiter told: for reading it, or changing what nobody waits on.
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// `body` with the state, then every waiter told to look again.
    public func update<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&state)
    }

    /// Waits until `ready` holds, then `body` with the state; every waiter is told to look again
    /// after it, as `update` does.
    public func update<Result>(when ready: (State) -> Bool, _ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        while !ready(state) { pthread_cond_wait(condition, mutex) }
        return try body(&state)
    }

    /// As `update(when:)`, waiting at most `seconds` (infinity: for good): `body` is told whether
    /// `ready` held or the time ran out first.
    public func update<Result>(when ready: (State) -> Bool, waitingAtMost seconds: Double,
                               _ body: (inout State, _ isReady: Bool) throws -> Result) rethrows -> Result {
        guard seconds.isFinite else { return try update(when: ready) { try body(&$0, true) } }
        let deadline = Self.monotonicDeadline(after: seconds)
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        var isReady = ready(state)
        while !isReady {
            var until = deadline
            let waited = pthread_cond_timedwait(condition, mutex, &until)
            isReady = ready(state)
            if waited == ETIMEDOUT { break }
        }
        return try body(&state, isReady)
    }

    private static func monotonicDeadline(after seconds: Double) -> timespec {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        // Past a billion seconds is as good as for good, and keeps the sum in range.
        let wait = min(max(0, seconds), 1e9)
        let whole = wait.rounded(.down)
        deadline.tv_sec += Int(whole)
        deadline.tv_nsec += Int((wait - whole) * 1e9)
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        return deadline
    }
}
