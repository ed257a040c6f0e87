internal import WorkerPool

/// The threads the library's calls decode on, as NIOThreadPool is for a server's blocking work:
/// a fixed number, shared by every call given it (`MediaConfiguration.pool`), so that a server
/// under load runs as many decodes at once as it has threads and the other calls wait their turn,
/// instead of a thread a call in flight. Threads start as work comes and end after ten seconds
/// idle, so an idle server holds none.
public final class MediaThreadPool: Sendable {
    /// Twice the cores the process may use (its affinity and cgroup quota), at least 4: decodes
    /// wait on the disk and the network as well as compute.
    public static let shared = MediaThreadPool(threads: max(4, 2 * WorkerThreads.cores))

    /// The most threads that decode at once.
    public let threads: Int

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        /// Started threads, busy or waiting for a job.
        var started = 0
        /// Threads running a job.
        var busy = 0
    }

    private let state = ConditionLock(State())
    private static let idleSeconds = 10.0

    /// A pool of at most `threads` threads (at least 1).
    public init(threads: Int) {
        self.threads = max(1, threads)
    }

    func run(_ job: @escaping @Sendable () -> Void) {
        // A waiting thread takes the job (the update tells it to look); a new one starts where the
        // jobs queued outnumber the threads free for them, while there is room.
        let startsThread = state.update { state in
            state.jobs.append(job)
            guard state.started - state.busy < state.jobs.count, state.started < threads else { return false }
            state.started += 1
            return true
        }
        guard startsThread, !WorkerThreads.detach({
            nameThisThread()
            self.work(untilIdleFor: Self.idleSeconds)
        }) else { return }
        // No thread to be had: the threads there are take the job in turn; with none, this one does.
        let runsHere = state.update { state in
            guard state.started == 1 else {
                state.started -= 1
                return false
            }
            return true
        }
        if runsHere { work(untilIdleFor: 0) }
    }

    /// A thread's loop: the next job, until none came for `seconds`.
    /// (Named by its starter: run on a caller's thread, it leaves that thread's name alone.)
    private func work(untilIdleFor seconds: Double) {
        while true {
            let next = state.update(when: { !$0.jobs.isEmpty }, waitingAtMost: seconds) { state, isReady -> (@Sendable () -> Void)? in
                guard isReady else {
                    state.started -= 1
                    return nil
                }
                state.busy += 1
                return state.jobs.removeFirst()
            }
            guard let next else { return }
            next()
            state.withLock { $0.busy -= 1 }
        }
    }
}
