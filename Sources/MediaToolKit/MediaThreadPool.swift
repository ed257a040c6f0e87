import Foundation
import Synchronization
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
        /// Started threads, busy or parked.
        var started = 0
        /// Parked threads that no job has claimed yet.
        var idle = 0
    }

    private let state = Mutex(State())
    /// One signal a claimed parked thread.
    private let wake = DispatchSemaphore(value: 0)
    private static let idleSeconds = 10.0

    /// A pool of at most `threads` threads (at least 1).
    public init(threads: Int) {
        self.threads = max(1, threads)
    }

    func run(_ job: @escaping @Sendable () -> Void) {
        enum Start { case wakeParked, startThread, leaveQueued }
        let start: Start = state.withLock { state in
            state.jobs.append(job)
            if state.idle > 0 {
                state.idle -= 1
                return .wakeParked
            }
            guard state.started < threads else { return .leaveQueued }
            state.started += 1
            return .startThread
        }
        switch start {
        case .wakeParked: wake.signal()
        case .startThread: Thread { self.work() }.start()
        case .leaveQueued: break
        }
    }

    private func work() {
        nameThisThread()
        while true {
            let job: (@Sendable () -> Void)? = state.withLock { state in
                if state.jobs.isEmpty {
                    state.idle += 1
                    return nil
                }
                return state.jobs.removeFirst()
            }
            if let job {
                job()
                continue
            }
            if wake.wait(timeout: .now() + Self.idleSeconds) == .success { continue }
            // Timed out. A slot no job claimed is this thread's to give up; if every slot is
            // claimed, a signal is on its way for this one.
            let retires = state.withLock { state in
                guard state.idle > 0 else { return false }
                state.idle -= 1
                state.started -= 1
                return true
            }
            if retires { return }
            wake.wait()
        }
    }
}
