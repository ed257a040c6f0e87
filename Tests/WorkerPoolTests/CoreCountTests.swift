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

    /// The kernel's own statement of the mask (`Cpus_allowed` in /proc/self/status, hex words):
    /// what the system call counts.
    static func maskFromStatus() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed:") })
        return line.dropFirst("Cpus_allowed:".count).filter(\.isHexDigit).reduce(0) { $0 + (Int(String($1), radix: 16) ?? 0).nonzeroBitCount }
    }

    @Test func affinityIsTheKernelsMask() throws {
        #expect(CoreCount.affinityCount() == (try Self.maskFromStatus()))
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
        let mask = try Self.maskFromStatus()
        #expect(CoreCount.available >= 1)
        #expect(CoreCount.available <= mask)
        #expect(WorkerThreads.cores == CoreCount.available)
    }
}
