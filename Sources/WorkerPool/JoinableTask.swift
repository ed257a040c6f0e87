import Synchronization

/// Work on a thread of its own from its creation, its value taken by `value()`, which waits for
/// it and rethrows its error; where the system gives no thread, the first `value()` does the work
/// on the caller's thread. A thread, not Dispatch's global queue: in a confined worker, Dispatch's
/// pool monitor reads /proc for its threads' states when they are slow, which Landlock refuses,
/// and libdispatch then ends the process (SIGILL, seen under load on a good PNG's crop).
/// The one fork/join helper: what modules made each of their own (a class holding a result, a
/// thread to join, a semaphore) is this. Sendable as checked: its state is behind its locks.
public final class JoinableTask<Value: Sendable>: Sendable {
    private let work: @Sendable () throws -> Value
    private let thread = Mutex<WorkerThreads.Group?>(nil)
    private let outcome = Mutex<Result<Value, any Error>?>(nil)

    public init(_ work: @escaping @Sendable () throws -> Value) {
        self.work = work
        thread.withLock { slot in
            let started = WorkerThreads.start(count: 1) { [self] _ in
                let result = Result { try work() }
                outcome.withLock { $0 = result }
            }
            if started.count == 1 { slot = consume started } else { started.join() }
        }
    }

    /// The work's value, once it is done; its error rethrown. Asked again, or by several threads
    /// at once, the same: the first to ask joins the thread (or does the work), the others wait.
    public func value() throws -> Value {
        let result = thread.withLock { started -> Result<Value, any Error> in
            if let group = started.take() { group.join() }
            if let done = outcome.withLock({ $0 }) { return done }
            // No thread was had: done here, once.
            let done = Result { try work() }
            outcome.withLock { $0 = done }
            return done
        }
        return try result.get()
    }
}
