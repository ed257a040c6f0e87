import FileIO
import Glibc
import Synchronization

/// The worker and zygote processes this process started and has not waited for yet: what it
/// ends and waits for when it ends on a signal or a reader gone (`Interrupts`), where no deinit
/// runs. A process left unwaited is a zombie for whatever reaps orphans, which in a container
/// (a server as its first process) may be nothing.
public enum LiveChildren {
    private static let pids = Mutex<Set<pid_t>>([])
    private static let ending = Atomic<Bool>(false)

    /// Set once the process ends (`endAll`): no worker or zygote is started after.
    static var isEnding: Bool { ending.load(ordering: .sequentiallyConsistent) }

    static func add(_ pid: pid_t) { _ = pids.withLock { $0.insert(pid) } }

    static func remove(_ pid: pid_t) { _ = pids.withLock { $0.remove(pid) } }

    /// Sends `pid` SIGKILL and waits for its end.
    static func endAndWait(_ pid: pid_t) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        FileSystem.retryingInterrupted { waitpid(pid, &status, 0) }
        remove(pid)
    }

    /// Sends every one SIGKILL, then waits for each: their ends run side by side. For a process
    /// that ends now and whose children are all the sandbox's (the tool): its other children too,
    /// as /proc lists them, so that a copy whose process was not yet known, or one another thread
    /// started meanwhile, is not left (a few rounds, while threads may still start one).
    public static func endAll() {
        // Taken on the thread that starts processes, so that none is being started, and none
        // starts after: a batch's thread may still ask for one while the process ends.
        WorkerSpawner.run { ending.store(true, ordering: .sequentiallyConsistent) }
        for _ in 0..<8 {
            let known = pids.withLock { pids in
                defer { pids.removeAll() }
                return pids
            }
            let all = known.union(listedChildren())
            if all.isEmpty { return }
            for pid in all { kill(pid, SIGKILL) }
            for pid in all {
                var status: Int32 = 0
                FileSystem.retryingInterrupted { waitpid(pid, &status, 0) }
            }
        }
    }

    /// This process's children, from each of its threads' /proc list.
    private static func listedChildren() -> Set<pid_t> {
        var found: Set<pid_t> = []
        for thread in FileSystem.names(in: "/proc/self/task") ?? [] {
            let descriptor = open("/proc/self/task/\(thread)/children", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &bytes, bytes.count)
            guard count > 0 else { continue }
            for word in bytes[..<count].split(whereSeparator: { $0 == 0x20 || $0 == 0x0A }) {
                if let pid = pid_t(String(decoding: word, as: UTF8.self)) { found.insert(pid) }
            }
        }
        return found
    }
}
