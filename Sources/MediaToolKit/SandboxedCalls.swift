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
    static func run(_ job: PixelJob, on file: InputFile, configuration: MediaConfiguration, cancellation: JobCancellation?,
                    isCancelled: () -> Bool, emit: (PictureRecord) throws -> Void) throws -> JobReport {
        guard let jobs = try workers(for: configuration) else {
            return try job.run(file, isCancelled: isCancelled, emit: emit)
        }
        let file = try ownOffset(file)
        var start = [UInt8](repeating: 0, count: 16)
        let got = (try? start.withUnsafeMutableBytes { try file.read(at: 0, into: $0) }) ?? 0
        var reader = PictureRecordReader(limit: recordLimit(configuration))
        let spec = try JSONValueEncoder.encode(JobSpec.pixels(job))
        let streams: Bool
        if case .pictureHeader = job { streams = false } else { streams = true }
        let report = try withoutActuallyEscaping(emit) { emit in
            try jobs.stream(spec: spec, input: file, decoders: job.decoders(Array(start.prefix(got))),
                            threads: configuration.threadCount, limit: Int.max, budget: configuration.sharedBudget, cancellation: cancellation,
                            into: streams ? { bytes in try reader.take(bytes, emit) } : nil)
        }
        guard reader.isAtRecordEnd else { throw PictureRecordError.malformed("a picture cut short") }
        return report
    }

    /// The input for a worker: its file opened anew, with a read offset of its own. A descriptor
    /// sent over a socket shares its offset with the sender's, and a worker that reads on from
    /// where the last one stopped (an `ImageSource`'s second call) would start mid-file.
    static func ownOffset(_ file: InputFile) throws -> InputFile {
        try InputFile(adopting: try MediaSource.reopen(file.descriptor), displayName: file.displayName)
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
        return registry.withLock { registry in
            if let jobs = registry[key] { return jobs }
            var settings = SandboxSettings(timeout: configuration.timeout, maxMemory: configuration.maxMemory, executable: executable)
            settings.environment = configuration.workerEnvironment
            // As many as the pool runs calls at once: more would only wait idle.
            settings.mostIdleWorkers = configuration.pool.threads
            // No worker is started until a call needs one.
            let jobs = SandboxedJobs(settings: settings, starting: [])
            registry[key] = jobs
            return jobs
        }
    }

    static let notFound = "no mediatool found beside this program or on PATH to decode in a sandbox: install mediatool "
        + "(the same version as MediaToolKit) on PATH, or name it with MediaConfiguration.sandbox = .worker(path), "
        + "or, for files you trust only, decode in this process with .inProcess"

    /// The workers of each executable and limits, kept for the process's life: a server's calls
    /// find them started.
    private static let registry = Mutex<[Key: SandboxedJobs]>([:])

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
    static func pictures(_ job: PixelJob, of file: @escaping @Sendable () throws -> InputFile, name: String, count: Int,
                         configuration: MediaConfiguration, finally: @escaping @Sendable () -> Void = {}) async throws(MediaError) -> [PictureRecord] {
        let cancellation = try? JobCancellation()
        return try await BlockingWork.run(file: name, on: configuration.pool, cancellation: cancellation) { isCancelled in
            let file = try file()
            defer { finally() }
            var records: [PictureRecord] = []
            _ = try run(job, on: file, configuration: configuration, cancellation: cancellation, isCancelled: isCancelled) { record in
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
