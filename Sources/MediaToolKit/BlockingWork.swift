import Foundation
import Synchronization
internal import Sandbox
internal import WorkerPool

/// Runs decoding, which blocks a thread for milliseconds to seconds, on a thread of the library's
/// rather than on one of the few threads Swift's concurrency runs every task on, and hands the result back
/// to the awaiting task. A task cancelled before the work starts gets `.cancelled`, and `isCancelled`
/// lets work that goes in steps (frames, blocks) stop between them.
enum BlockingWork {
    /// `cancellation`: a worker's job the work runs, ended at once when the task is cancelled.
    static func run<Result: Sendable>(file: String, on pool: MediaThreadPool, cancellation: JobCancellation? = nil,
                                      _ work: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) throws -> Result)
        async throws(MediaError) -> Result {
        let flag = CancellationFlag()
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                    // A thread of the library's, not Dispatch's global queue: on Linux that queue shares
                    // its threads with Swift's concurrency, and a decode there held up every other task.
                    pool.run {
                        if flag.isSet {
                            continuation.resume(throwing: MediaError.cancelled(file: file))
                            return
                        }
                        continuation.resume(with: Swift.Result { try work { flag.isSet } })
                    }
                }
            } onCancel: {
                flag.set()
                cancellation?.cancel()
            }
        } catch {
            throw MediaError(error, file: file)
        }
    }
}

/// Names the calling thread `MediaToolKit` for `top -H` and `/proc/PID/task/*/comm`; a thread
/// would otherwise carry the name of the one that started it (a concurrency pool's, say).
/// Foundation's `Thread.name` does not reach the kernel on Linux.
func nameThisThread() {
    WorkerThreads.nameThisThread("MediaToolKit")
}

/// Set once, read from any thread.
final class CancellationFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() { value.store(true, ordering: .releasing) }
}
