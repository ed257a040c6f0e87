/// A count of permits that threads take and give back, waiting while none is left: a counting
/// semaphore, on the package's one condition lock.
public final class Permits: Sendable {
    private let available: ConditionLock<Int>

    public init(_ count: Int = 0) {
        available = ConditionLock(count)
    }

    /// Takes a permit, waiting for one.
    public func take() {
        available.update(when: { $0 > 0 }) { $0 -= 1 }
    }

    /// Takes a permit, waiting at most `seconds` for one; false when none came.
    public func take(waitingAtMost seconds: Double) -> Bool {
        available.update(when: { $0 > 0 }, waitingAtMost: seconds) { count, isReady in
            if isReady { count -= 1 }
            return isReady
        }
    }

    /// Gives `count` permits back (or adds them).
    public func give(_ count: Int = 1) {
        available.update { $0 += count }
    }
}
