import Dispatch
import WorkerPool

/// A check that runs on a thread of its own from its creation; `wait` returns when it is done and
/// rethrows what it threw. A thread, not Dispatch's global queue: in a confined worker, Dispatch's
/// pool monitor reads /proc for its threads' states when they are slow, which Landlock refuses,
/// and libdispatch then ends the process (SIGILL, seen under load on a good PNG's crop).
final class BackgroundCheck: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once by the check before it signals, read only after waiting.
    private var failure: (any Error)?
    /// The check, when no thread could be had for it: run by `wait`.
    private var inline: (@Sendable () throws -> Void)?

    init(_ check: @escaping @Sendable () throws -> Void) {
        let started = WorkerThreads.detach { [self] in
            do { try check() } catch { self.failure = error }
            self.done.signal()
        }
        if !started { inline = check }
    }

    func wait() throws {
        if let check = inline {
            inline = nil
            do { try check() } catch { failure = error }
            done.signal()
        }
        done.wait()
        done.signal()  // later waits return at once
        if let failure { throw failure }
    }
}
