#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The descriptors the process may open: each connection holds one, and so does each upload's
/// file and each worker's pipes. Many systems start a process at 1024, below what its hard limit
/// allows: the service asks for the hard limit at its start, as servers do.
enum DescriptorLimit {
    /// The soft limit raised to the hard one (where the system allows); the limit now in force.
    @discardableResult
    static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(resourceKind, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resourceKind, &raised) == 0 { limit = raised }
        }
        return current
    }

    /// The limit in force.
    static var current: Int {
        var limit = rlimit()
        guard getrlimit(resourceKind, &limit) == 0 else { return 1024 }
        return Int(clamping: limit.rlim_cur)  // no limit (all ones) clamped to Int.max
    }

    #if canImport(Glibc)
    private static let resourceKind = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resourceKind = RLIMIT_NOFILE
    #endif
}
