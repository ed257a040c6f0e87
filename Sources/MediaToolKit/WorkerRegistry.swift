import Foundation
import Synchronization
internal import Jobs
internal import Sandbox

/// Where a call's workers are: the `mediatool` its configuration names or that is found, and the
/// workers started for each set of limits, kept between calls so that a server's calls find them
/// started.
enum WorkerRegistry {
    /// Where the configuration's calls run their jobs: its workers, reserving from its budget, or
    /// this process (`.inProcess`), each call through its own share of that budget.
    static func runner(for configuration: MediaConfiguration) throws(MediaError) -> JobRunner {
        guard let jobs = try workers(for: configuration) else {
            return .here(memoryStall: SandboxSettings.memoryStall(timeout: configuration.timeout))
        }
        return .workers(jobs, budget: configuration.sharedBudget)
    }

    /// The workers for the configuration's sandbox and limits; nil to decode in this process.
    private static func workers(for configuration: MediaConfiguration) throws(MediaError) -> SandboxedJobs? {
        let executable: String
        switch configuration.sandbox.choice {
        case .inProcess: return nil
        case .worker(let path):
            guard isExecutable(path) else {
                throw .deployment(file: "mediatool", reason: "no mediatool at \(path) to decode in a sandbox: install mediatool "
                    + "(the same version as MediaToolKit) there or on PATH, or, for files you trust only, decode in this process with .inProcess")
            }
            executable = path
        case .automatic:
            guard let found = automaticWorker else {
                throw .deployment(file: "mediatool", reason: Self.notFound)
            }
            executable = found
        }
        guard configuration.timeout.isFinite, configuration.timeout >= 0.001, configuration.timeout <= 31_536_000 else {
            throw .invalidRequest(file: "mediatool", reason: "a timeout of \(configuration.timeout) s: timeouts are from 0.001 s to a year (31536000)")
        }
        // Not the budget: each call brings its own, and a server that made one a request would
        // otherwise keep workers for each.
        let key = Key(executable: executable, maxMemory: configuration.maxMemory, timeout: configuration.timeout,
                      environment: configuration.workerEnvironment)
        // Dropped outside the lock: a set of workers let go ends their processes, which waits.
        var dropped: SandboxedJobs?
        defer { withExtendedLifetime(dropped) {} }
        return registry.withLock { registry in
            registry.uses += 1
            if let entry = registry.entries[key] {
                registry.entries[key] = (entry.jobs, registry.uses)
                return entry.jobs
            }
            // A few sets of limits at a time: a server that varied its timeout a request would
            // otherwise keep workers for each. The least recently used set goes (a call under way
            // in it holds it to its end).
            if registry.entries.count >= Self.mostKept, let oldest = registry.entries.min(by: { $0.value.used < $1.value.used }) {
                dropped = oldest.value.jobs
                registry.entries[oldest.key] = nil
            }
            var settings = SandboxSettings(timeout: configuration.timeout, maxMemory: configuration.maxMemory, executable: executable)
            settings.environment = configuration.workerEnvironment
            // As many as the pool runs calls at once: more would only wait idle.
            settings.mostIdleWorkers = configuration.pool.threads
            // No worker is started until a call needs one.
            let jobs = SandboxedJobs(settings: settings, starting: [])
            registry.entries[key] = (jobs, registry.uses)
            return jobs
        }
    }

    static let notFound = "no mediatool found beside this program or on PATH to decode in a sandbox: build it beside "
        + "yours (swift build --product mediatool, in the package that builds this program) or install it on PATH "
        + "(scripts/install in mediatool's clone), of MediaToolKit's version; or name it with MediaConfiguration.sandbox = "
        + ".worker(path); or, for files you trust only, decode in this process with .inProcess"

    /// The workers of each executable and limits, kept between calls (a server's calls find them
    /// started), the `mostKept` used last.
    private static let registry = Mutex<Registry>(Registry())
    static let mostKept = 4

    private struct Registry {
        var entries: [Key: (jobs: SandboxedJobs, used: Int)] = [:]
        var uses = 0
    }

    private struct Key: Hashable {
        let executable: String
        let maxMemory: Int
        let timeout: Double
        let environment: [String]
    }

    /// `mediatool` beside the running program (a server shipped with it, or a package's build
    /// folder), else the first executable one on `PATH`: once found, kept; until then looked for
    /// at each call, so that one installed while the server runs is found.
    static var automaticWorker: String? {
        if let found = foundWorker.withLock({ $0 }) { return found }
        let program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = [program.appendingPathComponent("mediatool").path]
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        candidates += path.split(separator: ":").filter { $0.hasPrefix("/") }.map { "\($0)/mediatool" }
        let found = candidates.first(where: isExecutable)
        if let found { foundWorker.withLock { $0 = found } }
        return found
    }

    private static let foundWorker = Mutex<String?>(nil)

    static func isExecutable(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }
}
