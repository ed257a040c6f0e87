import Foundation
import Synchronization
import Testing
import WorkerPool

/// The one fork/join helper: its work runs once, on a thread of its own, and every asker gets
/// its value or its error.
@Suite struct JoinableTaskTests {
    struct Refused: Error, Equatable {}

    @Test func theWorkRunsOnceOnAThreadOfItsOwn() throws {
        let runs = Atomic<Int>(0)
        let caller = pthread_self()
        let task = JoinableTask { () -> Bool in
            runs.add(1, ordering: .relaxed)
            return pthread_equal(pthread_self(), caller) == 0
        }
        // Asked by two threads at once, and again: the one value.
        let other = JoinableTask { try task.value() }
        #expect(try task.value())
        #expect(try other.value())
        #expect(try task.value())
        #expect(runs.load(ordering: .relaxed) == 1)
    }

    @Test func itsErrorIsRethrownToEveryAsker() {
        let task = JoinableTask<Int> { throw Refused() }
        #expect(throws: Refused()) { try task.value() }
        #expect(throws: Refused()) { try task.value() }
    }
}
