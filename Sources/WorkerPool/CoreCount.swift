import CMediaToolSystem
import Glibc

/// The CPUs this process may use: the CPUs of its affinity mask (`taskset`, Slurm, Kubernetes CPU
/// manager), capped by its cgroup v2 CPU quota (`cpu.max`, quota over period, rounded up: a
/// container limited to 2 CPUs on a 64-core node gets 2). At least 1.
public enum CoreCount {
    public static let available: Int = count(affinity: affinityCount(), quota: cgroupQuota())

    /// `affinity` capped by `quota`, where each is known.
    static func count(affinity: Int?, quota: Int?) -> Int {
        let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        return max(1, min(affinity ?? online, quota ?? Int.max))
    }

    /// The CPUs in the process's affinity mask (sched_getaffinity, through `CMediaToolSystem`: a system
    /// call, where reading /proc may be refused to a confined worker).
    static func affinityCount() -> Int? {
        let count = Int(mt_affinity_count())
        return count > 0 ? count : nil
    }

    /// The quota of the process's cgroup (v2), from `cpu.max` of its own cgroup folder, else the
    /// root of the cgroup mount (a container's namespace); `MEDIATOOL_CGROUP_CPU_MAX` names another
    /// file, for tests.
    static func cgroupQuota() -> Int? {
        var candidates: [String] = []
        if let override = getenv("MEDIATOOL_CGROUP_CPU_MAX") {
            candidates = [String(cString: override)]
        } else {
            if let line = readText("/proc/self/cgroup")?.split(separator: "\n").first(where: { $0.hasPrefix("0::") }) {
                candidates.append("/sys/fs/cgroup" + line.dropFirst(3) + "/cpu.max")
            }
            candidates.append("/sys/fs/cgroup/cpu.max")
        }
        for path in candidates {
            if let text = readText(path) { return quota(fromCPUMax: text) }
        }
        return nil
    }

    /// "200000 100000" is 2 CPUs, "150000 100000" rounds up to 2, "max 100000" is no quota.
    static func quota(fromCPUMax text: String) -> Int? {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 2, let limit = Int(fields[0]), let period = Int(fields[1]), limit > 0, period > 0 else { return nil }
        return (limit + period - 1) / period
    }

    /// A small text file's contents; nil when it cannot be read.
    private static func readText(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 16384)
        let count = fread(&buffer, 1, buffer.count - 1, file)
        return count > 0 ? String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }
}
