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

    /// Two jobs of one process that each hold what the other waits for (a video whose index is
    /// nearly the whole budget, beside a photo holding its own): the red team's pair hung
    /// `--sandbox off` for good. Each job is a share of the budget; once nothing has been given
    /// back for the stall, the waiter holding the most gives up, whichever began to wait first,
    /// and the other is served.
    @Test(arguments: [true, false])
    func ofTwoJobsWaitingOnEachOtherTheOneHoldingMostGivesUp(largerWaitsFirst: Bool) throws {
        let budget = MemoryBudget(total: 1000)
        // A second's stall: at 0.3 s, in a loaded full run, the small one gave up too before the
        // large one's thread had given its memory back.
        let shares = ["large": (budget.share(total: 1000, givingUpAfter: 1), 700), "small": (budget.share(total: 1000, givingUpAfter: 1), 250)]
        let outcomes = Mutex<[String: Bool]>([:])
        let holding = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        var goes: [String: DispatchSemaphore] = [:]
        for (name, (share, bytes)) in shares {
            let go = DispatchSemaphore(value: 0)
            goes[name] = go
            Thread {
                // The job's reservation lives in its thread: a job that gets no more ends, and gives it back.
                var held = share.reserve(bytes)
                holding.signal()
                go.wait()
                let more = share.reserve(100)
                outcomes.withLock { $0[name] = held != nil && more != nil }
                if more == nil { held = nil }
                done.signal()
                withExtendedLifetime((held, more)) {}
            }.start()
        }
        for _ in shares { #expect(holding.wait(timeout: .now() + 30) == .success) }
        for name in largerWaitsFirst ? ["large", "small"] : ["small", "large"] {
            goes[name]?.signal()
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(done.wait(timeout: .now() + 30) == .success && done.wait(timeout: .now() + 30) == .success, "the two jobs hung")
        #expect(outcomes.withLock { $0 } == ["large": false, "small": true])
        #expect(shares["large"]?.0.starvedSeconds != nil && shares["small"]?.0.starvedSeconds == nil)
    }

    /// A job that holds the memory and works on, with no deadline (`--sandbox off`), is waited
    /// for: the one waiting behind it is never the one given up (the fifth red team had an
    /// innocent video ended behind a slow one), and gets its memory when the worker is done.
    @Test func aWaiterBehindAJobThatWorksOnIsNeverGivenUp() throws {
        let budget = MemoryBudget(total: 1000)
        let worker = budget.share(total: 1000, givingUpAfter: 0.2)
        let waiter = budget.share(total: 1000, givingUpAfter: 0.2)
        let working = DispatchSemaphore(value: 0)
        Thread {
            let held = worker.reserve(900)
            working.signal()
            // Works on, well past the waiter's stall, then gives it back.
            Thread.sleep(forTimeInterval: 1)
            withExtendedLifetime(held) {}
        }.start()
        #expect(working.wait(timeout: .now() + 30) == .success)
        let got = waiter.reserve(200)
        #expect(got != nil && waiter.starvedSeconds == nil)
    }
}
