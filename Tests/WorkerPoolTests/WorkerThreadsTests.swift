import Foundation
import Testing
import WorkerPool

/// `WorkerThreads`: every worker index run once, on threads of their own, all done on return.
@Suite struct WorkerThreadsTests {
    /// What the workers did, under a lock.
    final class Record: @unchecked Sendable {
        private let lock = NSLock()
        private var runs: [Int: Int] = [:]
        private var threads: Set<UInt> = []
        private(set) var arrived = 0

        func ran(_ worker: Int) {
            let thread = UInt(pthread_self())
            lock.withLock {
                runs[worker, default: 0] += 1
                threads.insert(thread)
            }
        }

        func arrive() { lock.withLock { arrived += 1 } }
        var arrivedCount: Int { lock.withLock { arrived } }
        var counts: [Int: Int] { lock.withLock { runs } }
        var threadCount: Int { lock.withLock { threads.count } }
    }

    @Test(arguments: [1, 2, 7, 64])
    func everyIndexRunsExactlyOnce(count: Int) {
        let record = Record()
        WorkerThreads.run(count: count) { record.ran($0) }
        // All of them done once `run` returns.
        #expect(record.counts == Dictionary(uniqueKeysWithValues: (0..<count).map { ($0, 1) }))
    }

    @Test func noWorkersRunNothing() {
        let record = Record()
        WorkerThreads.run(count: 0) { record.ran($0) }
        #expect(record.counts.isEmpty)
    }

    /// Threads, not a queue: four workers that each wait for all four to arrive all get there
    /// (a pool running fewer at once would wait here until the deadline).
    @Test func workersRunAtOnce() {
        let record = Record()
        let workers = 4
        WorkerThreads.run(count: workers) { worker in
            record.arrive()
            let deadline = Date().addingTimeInterval(10)
            while record.arrivedCount < workers && Date() < deadline { usleep(200) }
            record.ran(worker)
        }
        #expect(record.arrivedCount == workers)
        #expect(record.threadCount == workers)
    }

    @Test func startedGroupsRunUntilJoined() {
        let record = Record()
        let group = WorkerThreads.start(count: 5) { record.ran($0) }
        #expect(group.count == 5)
        group.join()
        #expect(record.counts == Dictionary(uniqueKeysWithValues: (0..<5).map { ($0, 1) }))
    }

    /// 0 is every core; any other count is itself.
    @Test func countForSetting() {
        #expect(WorkerThreads.count(forSetting: 0) == CoreCount.available)
        #expect(WorkerThreads.count(forSetting: 1) == 1)
        #expect(WorkerThreads.count(forSetting: 3) == 3)
        #expect(WorkerThreads.count(forSetting: 128) == 128)
    }
}
