import CMediaToolSystem
import Glibc

/// Runs `body(worker)` on `count` threads of their own and waits for them all. Threads, not a
/// Dispatch queue: a queue may run fewer at once than asked when jobs block on I/O or decoding.
public enum WorkerThreads {
    /// The processors this process may run on.
    public static var cores: Int { CoreCount.available }

    /// The threads a setting asks for: itself, or every core for 0 (how every `threads` option
    /// and setting of the tool says "as many as there are").
    public static func count(forSetting threads: Int) -> Int { threads > 0 ? threads : cores }

    /// Names the calling thread, as `top -H` and `/proc/PID/task/*/comm` show it (15 bytes kept).
    public static func nameThisThread(_ name: String) {
        _ = mt_name_this_thread(name)
    }

    private final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    public static func run(count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        start(count: count, runsRefusedWorkersHere: true, body).join()
    }

    /// Threads started by `start`, to be joined.
    public struct Group: ~Copyable {
        fileprivate let threads: [pthread_t]

        /// The threads that could be started.
        public var count: Int { threads.count }

        /// Waits for every thread of the group to end.
        public consuming func join() {
            for thread in threads { pthread_join(thread, nil) }
        }
    }

    /// Proof that code runs on a thread started here, one the Swift runtime knows as itself. A
    /// zygote's copy's first thread is not: the thread ID the runtime cached for it is the
    /// zygote's, and a `Mutex` taken there is refused by the kernel. Code that may take locks in
    /// such a copy asks for this proof, which only `runOnStartedThread` gives.
    public struct StartedThread: ~Copyable {
        fileprivate init() {}
    }

    /// Runs `body` on a new thread and waits for it; false when the system refuses one (and
    /// `body` is not run).
    public static func runOnStartedThread(_ body: @escaping @Sendable (borrowing StartedThread) -> Void) -> Bool {
        guard let thread = spawn({ body(StartedThread()) }) else { return false }
        pthread_join(thread, nil)
        return true
    }

    /// Starts `body` on a thread of its own that nobody joins; false when the system refuses one.
    public static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard let thread = spawn(body) else { return false }
        pthread_detach(thread)
        return true
    }

    /// Starts `body(worker)` on `count` threads of their own and returns at once; `join` waits for them.
    /// A worker whose thread the system refuses is run here first when `runsRefusedWorkersHere`, and
    /// otherwise left out (the group's `count` says how many run).
    public static func start(count: Int, runsRefusedWorkersHere: Bool = false, _ body: @escaping @Sendable (Int) -> Void) -> Group {
        var threads: [pthread_t] = []
        for worker in 0..<count {
            if let thread = spawn({ body(worker) }) {
                threads.append(thread)
            } else if runsRefusedWorkersHere {
                // No thread to be had: do this worker's share here.
                body(worker)
            }
        }
        return Group(threads: threads)
    }

    /// `body` on a new thread; nil when the system refuses one (and `body` is not run).
    private static func spawn(_ body: @escaping () -> Void) -> pthread_t? {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
            work.body()
            return nil
        }, work)
        guard created == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            return nil
        }
        return thread
    }
}
