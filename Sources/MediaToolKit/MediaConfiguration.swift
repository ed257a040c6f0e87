internal import Imaging
internal import Sandbox
internal import WorkerPool

/// What a call may use: threads and memory. Passed in, never read from the environment, so that
/// two parts of a server can run with different pools and budgets side by side.
public struct MediaConfiguration: Sendable, Equatable {
    /// Threads one call may use for decoding, scaling and encoding; 0 for every core the process may use
    /// (its affinity and cgroup quota). A server handling many requests at once sets 1 or 2.
    public var threads: Int
    /// Pictures and frames with more pixels are refused from their header, before any decoding.
    public var maxPixels: Int
    /// Work that would need more memory (decoders, frames, every size) is refused before it allocates.
    public var maxMemory: Int
    /// The threads calls decode on: `MediaThreadPool.shared` unless given, so that a server's
    /// calls, however many, decode on a fixed number of threads and wait their turn.
    public var pool: MediaThreadPool = .shared
    /// The memory calls share; nil (the default): every call of the process with this `maxMemory`
    /// shares one budget of that size, as the command line's jobs share `--max-memory`.
    public var budget: MediaMemoryBudget?
    /// Where calls decode: in confined `mediatool` workers (`.automatic`, the default), or in this
    /// process for trusted files (`.inProcess`).
    public var sandbox: MediaSandbox = .automatic
    /// Seconds a call's decode may take in its worker before the worker is ended and the call
    /// fails (`.overLimit`); the command line's `--timeout`. In-process calls have no deadline.
    public var timeout: Double = 120
    /// Added to the workers' environment: the tests' misbehaving decoders.
    var workerEnvironment: [String] = []

    /// The command line's defaults: every core, 268 million pixels, 1 GiB.
    public init(threads: Int = 0, maxPixels: Int = 268_000_000, maxMemory: Int = 1 << 30) {
        self.threads = threads
        self.maxPixels = maxPixels
        self.maxMemory = maxMemory
    }

    /// A call's limits, its memory reserved through its own share of the budget (`callBudget`).
    var limits: DecodeLimits { DecodeLimits(maxPixels: maxPixels, maxMemory: maxMemory, budget: callBudget) }

    /// One call's share of the budget (`MemoryBudget.share`): in this process, two calls that each
    /// hold what the other waits for end in the one holding the most, not in a hang. (A worker's
    /// call reserves through the parent's `SandboxedJobs`, which knows each job the same way.)
    var callBudget: MemoryBudget {
        sharedBudget.share(total: maxMemory, givingUpAfter: SandboxSettings.memoryStall(timeout: timeout))
    }

    /// The budget the call's decoding reserves from.
    var sharedBudget: MemoryBudget { (budget ?? MediaMemoryBudget.shared(bytes: maxMemory)).budget }

    /// Equal settings: the same numbers, the same pool and the same budget (one object, not one of
    /// the same size).
    public static func == (left: MediaConfiguration, right: MediaConfiguration) -> Bool {
        left.threads == right.threads && left.maxPixels == right.maxPixels && left.maxMemory == right.maxMemory
            && left.pool === right.pool && left.budget === right.budget && left.sandbox == right.sandbox && left.timeout == right.timeout
            && left.workerEnvironment == right.workerEnvironment
    }

    /// `threads` as the work takes it: below 0 is every core, and more than the cores the process
    /// may use is that many (more only cost memory: a confined worker's address space cannot hold
    /// FFmpeg's 256).
    var threadCount: Int { threads < 0 ? 0 : min(threads, WorkerThreads.cores) }
}
