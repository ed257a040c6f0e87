import FileIO
import Glibc
import Synchronization

/// The worker and zygote processes this process started and has not waited for yet: what it
/// ends and waits for when it ends on a signal or a reader gone (`Interrupts`), where no deinit
/// runs. A process left unwaited is a zombie for whatever reaps orphans, which in a container
/// (a server as its first process) may be nothing.
public enum LiveChildren {
    private static let pids = Mutex<Set<pid_t>>([])

    static func add(_ pid: pid_t) { _ = pids.withLock { $0.insert(pid) } }

    static func remove(_ pid: pid_t) { _ = pids.withLock { $0.remove(pid) } }

    /// Sends `pid` SIGKILL and waits for its end.
    static func endAndWait(_ pid: pid_t) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        FileSystem.retryingInterrupted { waitpid(pid, &status, 0) }
        remove(pid)
    }

    /// Sends every one SIGKILL, then waits for each: their ends run side by side.
    public static func endAll() {
        let all = pids.withLock { pids in
            defer { pids.removeAll() }
            return pids
        }
        for pid in all { kill(pid, SIGKILL) }
        for pid in all {
            var status: Int32 = 0
            FileSystem.retryingInterrupted { waitpid(pid, &status, 0) }
        }
    }
}
