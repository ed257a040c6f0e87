import Dispatch
import Synchronization

/// Runs decoding, which blocks a thread for milliseconds to seconds, on a thread of its own rather
/// than on one of the few threads Swift's concurrency runs every task on, and hands the result back
/// to the awaiting task. A task cancelled before the work starts gets `.cancelled`, and `isCancelled`
/// lets work that goes in steps (frames, blocks) stop between them.
enum BlockingWork {
    static func run<Result: Sendable>(file: String, _ work: @escaping @Sendable (_ isCancelled: @Sendable () -> Bool) throws -> Result)
        async throws(MediaError) -> Result {
        let flag = CancellationFlag()
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                    DispatchQueue.global().async {
                        if flag.isSet {
                            continuation.resume(throwing: MediaError.cancelled(file: file))
                            return
                        }
                        continuation.resume(with: Swift.Result { try work { flag.isSet } })
                    }
                }
            } onCancel: {
                flag.set()
            }
        } catch {
            throw MediaError(error, file: file)
        }
    }
}

/// Set once, read from any thread.
final class CancellationFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() { value.store(true, ordering: .releasing) }
}
