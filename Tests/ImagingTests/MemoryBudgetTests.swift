import Foundation
import Imaging
import Synchronization
import Testing

/// --max-memory is the run's, shared by its jobs (-j 8 on 1 MB bombs took 6.9 GB).
@Suite struct MemoryBudgetTests {
    @Test func whatAJobNeedsAloneOverTheBudgetIsNeverGiven() {
        let budget = MemoryBudget(total: 1000)
        #expect(budget.reserve(1001) == nil)
        #expect(budget.reserve(1000) != nil)
    }

    @Test func aJobWaitsWhileOthersHoldTheRest() throws {
        let budget = MemoryBudget(total: 1000)
        var first = budget.reserve(600)
        let secondHeld = Atomic<Bool>(false)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let second = budget.reserve(600)
            secondHeld.store(second != nil, ordering: .sequentiallyConsistent)
            done.signal()
            withExtendedLifetime(second) {}
        }.start()
        // Whenever the other thread got this far, it cannot have its 600 while the first 600 are held.
        #expect(done.wait(timeout: .now() + 0.2) == .timedOut)
        let heldEarly = secondHeld.load(ordering: .sequentiallyConsistent)
        #expect(!heldEarly)
        #expect(first != nil)
        first = nil
        #expect(done.wait(timeout: .now() + 60) == .success, "the second job never got the memory released")
        let heldLater = secondHeld.load(ordering: .sequentiallyConsistent)
        #expect(heldLater)
        // Both released: the whole budget is there again.
        #expect(budget.reserve(1000) != nil)
    }
}
