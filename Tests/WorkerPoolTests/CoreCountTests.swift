import Foundation
import Testing
@testable import WorkerPool

/// `CoreCount`: the affinity mask's CPUs, capped by the cgroup v2 quota rounded up, at least 1.
@Suite struct CoreCountTests {
    @Test(arguments: [
        ("200000 100000", 2),
        ("150000 100000", 2),  // 1.5 CPUs: rounded up
        ("100001 100000", 2),
        ("100000 100000\n", 1),
        ("50000 100000", 1),  // half a CPU is still one
        ("1 100000", 1),
        ("400000 50000", 8),
        ("250000 100000\n", 3),
    ])
    func quotaIsRoundedUp(text: String, cpus: Int) {
        #expect(CoreCount.quota(fromCPUMax: text) == cpus)
    }

    @Test(arguments: ["max 100000", "max 100000\n", "", "200000", "0 100000", "100000 0", "-1 100000", "abc def"])
    func noQuota(text: String) {
        #expect(CoreCount.quota(fromCPUMax: text) == nil)
    }

    @Test func affinityMaskBitsAreCounted() {
        #expect(CoreCount.affinityCount(fromStatus: "Name:\tx\nCpus_allowed:\tff\nCpus_allowed_list:\t0-7\n") == 8)
        #expect(CoreCount.affinityCount(fromStatus: "Cpus_allowed:\t1\n") == 1)
        #expect(CoreCount.affinityCount(fromStatus: "Cpus_allowed:\t5\n") == 2)
        // Comma-separated 32-bit words, as on machines with more than 32 CPUs.
        #expect(CoreCount.affinityCount(fromStatus: "Cpus_allowed:\tffffffff,ffffffff\n") == 64)
        #expect(CoreCount.affinityCount(fromStatus: "Cpus_allowed:\t00000000,00000000,00000000,80000001\n") == 2)
        #expect(CoreCount.affinityCount(fromStatus: "Cpus_allowed:\tA0\n") == 2)
        // The list line is not the mask, wherever it is.
        #expect(CoreCount.affinityCount(fromStatus: "Cpus_allowed_list:\t0-63\nCpus_allowed:\t3\n") == 2)
    }

    @Test func noAffinityMask() {
        #expect(CoreCount.affinityCount(fromStatus: "Name:\tx\n") == nil)
        #expect(CoreCount.affinityCount(fromStatus: "Cpus_allowed:\t00000000\n") == nil)
        #expect(CoreCount.affinityCount(fromStatus: "") == nil)
    }

    /// The lesser of the two where both are known; the online CPUs where neither is.
    @Test func affinityCappedByQuota() {
        let online = ProcessInfo.processInfo.processorCount
        #expect(CoreCount.count(affinity: 8, quota: 2) == 2)
        #expect(CoreCount.count(affinity: 2, quota: 8) == 2)
        #expect(CoreCount.count(affinity: 3, quota: nil) == 3)
        #expect(CoreCount.count(affinity: nil, quota: nil) == online)
        #expect(CoreCount.count(affinity: nil, quota: 1) == 1)
        #expect(CoreCount.count(affinity: nil, quota: online + 5) == online)
        #expect(CoreCount.count(affinity: 0, quota: 0) == 1)
    }

    /// This process's own count: at least 1, and never more than the CPUs of its mask.
    @Test func availableIsWithinTheAffinityMask() throws {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let mask = try #require(CoreCount.affinityCount(fromStatus: status))
        #expect(CoreCount.available >= 1)
        #expect(CoreCount.available <= mask)
        #expect(WorkerThreads.cores == CoreCount.available)
    }
}
