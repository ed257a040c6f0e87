import Dispatch

/// A check that runs on another thread from its creation; `wait` returns when it is done and
/// rethrows what it threw.
final class BackgroundCheck: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once by the check before it signals, read only after waiting.
    private var failure: (any Error)?

    init(_ check: @escaping @Sendable () throws -> Void) {
        DispatchQueue.global().async {
            do { try check() } catch { self.failure = error }
            self.done.signal()
        }
    }

    func wait() throws {
        done.wait()
        done.signal()  // later waits return at once
        if let failure { throw failure }
    }
}
