import Glibc

/// Seconds of the monotonic clock: for durations and deadlines, which the wall clock's jumps must not move.
public enum Clock {
    public static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
