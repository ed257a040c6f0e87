import Foundation
import Synchronization
internal import Batch
internal import FileIO
internal import Imaging
internal import Jobs
internal import JSON
internal import Sandbox

/// Runs a call's job where its configuration says: in a worker (kept for the next call with the
/// same limits), or in this process. One path for every call that decodes, so that what a caller
/// gets does not depend on where it was made.
enum SandboxedCalls {
    /// Does `job` on `file`: each picture to `emit` as it comes, the report returned. Blocks: run
    /// on a thread of the pool (`BlockingWork`) or of a frame stream's own. `cancellation` ends a
    /// worker's decode at once; `isCancelled` is looked at between an in-process job's steps.
    /// `count`: the pictures the job must give, when it is known (a worker's answer is checked).
    static func run(_ job: PixelJob, on file: InputFile, configuration: MediaConfiguration, cancellation: JobCancellation?,
                    count: Int? = nil, isCancelled: () -> Bool, emit: (PictureRecord) throws -> Void) throws -> JobReport {
        guard let jobs = try workers(for: configuration) else {
            return try job.run(file, isCancelled: isCancelled, emit: emit)
        }
        let file = try ownOffset(file)
        var start = [UInt8](repeating: 0, count: 16)
        let got = (try? start.withUnsafeMutableBytes { try file.read(at: 0, into: $0) }) ?? 0
        // Pictures a call gets at once are all held: together within its memory.
        let limitsTotal: Bool
        if case .frames = job { limitsTotal = false } else { limitsTotal = true }
        var reader = PictureRecordReader(limit: recordLimit(configuration), limitsTotal: limitsTotal)
        let spec = try JSONValueEncoder.encode(JobSpec.pixels(job))
        let streams: Bool
        if case .pictureHeader = job { streams = false } else { streams = true }
        let report = try withoutActuallyEscaping(emit) { emit in
            try jobs.stream(spec: spec, input: file, decoders: job.decoders(Array(start.prefix(got))),
                            threads: configuration.threadCount, limit: Int.max, budget: configuration.sharedBudget, cancellation: cancellation,
                            into: streams ? { bytes in
                                try reader.take(bytes) { record in
                                    guard job.admits(record, maxPixels: configuration.maxPixels) else {
                                        throw PictureRecordError.malformed("a picture of \(record.pixels.width)x\(record.pixels.height) where none of that size was asked for")
                                    }
                                    try emit(record)
                                }
                            } : nil, accept: { _ in
                                guard reader.isAtRecordEnd else { throw PictureRecordError.malformed("a picture cut short") }
                                if let count, reader.count != count { throw PictureRecordError.malformed("\(reader.count) pictures of \(count)") }
                            })
        }
        return report
    }

    /// The input for a worker: its file opened anew, with a read offset of its own. A descriptor
    /// sent over a socket shares its offset with the sender's, and a worker that reads on from
    /// where the last one stopped (an `ImageSource`'s second call) would start mid-file.
    static func ownOffset(_ file: InputFile) throws -> InputFile {
        try InputFile(adopting: try MediaSource.reopen(file.descriptor), displayName: file.displayName)
    }

    /// What ends the copy of a stream a call reads (a FIFO, a pipe): the task's cancellation, and
    /// the call's timeout from now, so that a stream that never ends holds no call for ever.
    static func stop(_ configuration: MediaConfiguration, isCancelled: @escaping @Sendable () -> Bool) -> () throws -> Void {
        let deadline = Clock.seconds() + configuration.timeout
        let timeout = configuration.timeout
        return {
            if isCancelled() { throw CancellationError() }
            if Clock.seconds() > deadline { throw InputError.tooSlow(seconds: timeout) }
        }
    }

    /// The most one picture from a worker may take: what the call's memory allows.
    static func recordLimit(_ configuration: MediaConfiguration) -> Int { max(configuration.maxMemory, 1 << 20) }

    /// The workers for the configuration's sandbox and limits; nil to decode in this process.
    static func workers(for configuration: MediaConfiguration) throws(MediaError) -> SandboxedJobs? {
        let executable: String
        switch configuration.sandbox.choice {
        case .inProcess: return nil
        case .worker(let path):
            guard isExecutable(path) else {
                throw .unreadable(file: "mediatool", reason: "no mediatool at \(path) to decode in a sandbox: install mediatool "
                    + "(the same version as MediaToolKit) there or on PATH, or, for files you trust only, decode in this process with .inProcess")
            }
            executable = path
        case .automatic:
            guard let found = automaticWorker else {
                throw .unreadable(file: "mediatool", reason: Self.notFound)
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

    static let notFound = "no mediatool found beside this program or on PATH to decode in a sandbox: install mediatool "
        + "(the same version as MediaToolKit) on PATH, or name it with MediaConfiguration.sandbox = .worker(path), "
        + "or, for files you trust only, decode in this process with .inProcess"

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
    /// folder), else the first executable one on `PATH`; looked for once.
    static let automaticWorker: String? = {
        let program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = [program.appendingPathComponent("mediatool").path]
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        candidates += path.split(separator: ":").filter { $0.hasPrefix("/") }.map { "\($0)/mediatool" }
        return candidates.first(where: isExecutable)
    }()

    static func isExecutable(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
    }
}

extension SandboxedCalls {
    /// The job's pictures from `source`, on a thread of the configuration's pool: `count` of them
    /// (one a size or time, in order), checked, whoever made them. The task's cancellation ends a
    /// worker's decode at once.
    /// `file` opens the input (this process's part: no decoding), on the same thread.
    /// `finally` runs once the job is over, after `file` gave its input.
    static func pictures(_ job: PixelJob, of file: @escaping @Sendable (_ stop: @escaping () throws -> Void) throws -> InputFile, name: String, count: Int,
                         configuration: MediaConfiguration, finally: @escaping @Sendable () -> Void = {}) async throws(MediaError) -> [PictureRecord] {
        let cancellation = try? JobCancellation()
        return try await BlockingWork.run(file: name, on: configuration.pool, cancellation: cancellation) { isCancelled in
            let file = try file(stop(configuration, isCancelled: isCancelled))
            defer { finally() }
            var records: [PictureRecord] = []
            _ = try run(job, on: file, configuration: configuration, cancellation: cancellation, count: count, isCancelled: isCancelled) { record in
                guard record.index == records.count, records.count < count else {
                    throw PictureRecordError.malformed("picture \(record.index) where \(records.count) of \(count) was due")
                }
                records.append(record)
            }
            guard records.count == count else { throw PictureRecordError.malformed("\(records.count) pictures of \(count)") }
            return records
        }
    }

}

extension Bitmap {
    init(_ record: PictureRecord) {
        self.init(record.pixels, metadata: record.metadata)
    }
}
