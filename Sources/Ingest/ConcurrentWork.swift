import Synchronization
import WorkerPool

/// Work started on a thread of its own, its result (or error) taken once it is done; where no
/// thread can be had, it is done when the result is asked for.
final class ConcurrentWork<Value: Sendable>: @unchecked Sendable {
    private let work: @Sendable () throws -> Value
    private let outcome = Mutex<Result<Value, any Error>?>(nil)
    private var thread: WorkerThreads.Group?
    private var taken: Result<Value, any Error>?

    init(_ work: @escaping @Sendable () throws -> Value) {
        self.work = work
        let started = WorkerThreads.start(count: 1) { [self] _ in
            let result = Result { try work() }
            outcome.withLock { $0 = result }
        }
        if started.count == 1 { thread = consume started } else { started.join() }
    }

    /// Waits for the work and gives its value, or throws its error; by the caller's thread when
    /// no thread could be started. Called once, by the thread that made it.
    func result() throws -> Value {
        if let taken { return try taken.get() }
        if let group = thread.take() { group.join() }
        let result = outcome.withLock { $0 } ?? Result { try work() }
        taken = result
        return try result.get()
    }
}
