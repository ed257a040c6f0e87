import Foundation
import Synchronization

/// Threads for blocking work, kept a while after their work: a call that decodes for a third of a
/// millisecond (a probe) should not pay 40 µs to start a thread and more to wake one. One thread a
/// call in flight, however many; a thread idle for ten seconds ends. Nothing here is a setting: how
/// much a call may use comes in its `MediaConfiguration`.
final class BlockingThreads: Sendable {
    static let shared = BlockingThreads()

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        /// Parked threads that no job has claimed yet.
        var idle = 0
    }

    private let state = Mutex(State())
    /// One signal a claimed parked thread.
    private let wake = DispatchSemaphore(value: 0)
    private static let idleSeconds = 10.0

    func run(_ job: @escaping @Sendable () -> Void) {
        let claimsParkedThread = state.withLock { state in
            state.jobs.append(job)
            guard state.idle > 0 else { return false }
            state.idle -= 1
            return true
        }
        if claimsParkedThread {
            wake.signal()
        } else {
            Thread { self.work() }.start()
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
                return true
            }
            if retires { return }
            wake.wait()
        }
    }
}
