import Batch
import FileIO
import Imaging
import JSON
import Sandbox

/// Where jobs are done, chosen once from a run's or a library call's configuration: in this
/// process, each job reserving through its own share of the memory budget, or in sandboxed
/// workers. The command line's batch and `--serve`, and the library's probe, ingest and picture
/// calls, run every job through one; nothing else asks where a job runs.
public enum JobRunner: Sendable {
    /// In this process (`--sandbox off`, `.inProcess`): a job waiting for memory that is stuck
    /// gives up after `memoryStall` seconds where it holds the most (`MemoryBudget.share`).
    case here(memoryStall: Double)
    /// In workers, which reserve from `budget` (the run's, or the calls').
    case workers(SandboxedJobs, budget: MemoryBudget?)

    /// A job's spec with its encoding for a worker, made once for all the inputs it is run on.
    public struct Spec: Sendable {
        public let spec: JobSpec
        let encoded: JSONValue

        public init(_ spec: JobSpec) throws {
            self.spec = spec
            encoded = try JSONValueEncoder.encode(spec)
        }
    }

    /// The workers, where jobs run in them.
    public var workers: SandboxedJobs? {
        if case .workers(let jobs, _) = self { jobs } else { nil }
    }

    /// `job` (made from `spec`, its policy and stream limits the caller's) on `input`, writing
    /// `outputs` whole or none: its report. In this process the job's work is made again from the
    /// spec, reserving through a share of the budget of its own.
    /// `progress` is told how far a long job (a web video) has got.
    public func run(_ job: FileJob, spec: Spec, input: String, outputs: [PlannedOutput], threads: Int,
                    cancellation: JobCancellation? = nil, progress: (@Sendable (JobProgress) -> Void)? = nil) throws -> JobReport {
        switch self {
        case .here(let stall):
            var own = job
            own.work = spec.spec.sharingMemory(givingUpAfter: stall).job(threads: threads).work
            return try own.run(input: input, outputs: outputs, progress: progress)
        case .workers(let jobs, let budget):
            return try jobs.run(job, spec: spec.encoded, input: input, outputs: outputs, threads: threads,
                                cancellation: cancellation, budget: budget, progress: progress)
        }
    }

    /// `job` (made from `spec`) on an open `file` that writes nothing, a probe: its report. In
    /// this process the job reserves through the budget its spec holds (the call's own share).
    public func report(_ job: FileJob, spec: Spec, on file: InputFile, reopened: (InputFile) throws -> InputFile, threads: Int,
                       cancellation: JobCancellation?) throws -> JobReport {
        guard case .workers(let jobs, let budget) = self else {
            return try job.work(file, NoOutputs(), "")
        }
        return try jobs.stream(spec: spec.encoded, input: try reopened(file), decoders: job.decoders, threads: threads, limit: 0,
                               budget: budget, cancellation: cancellation, into: nil)
    }

    /// A library's `PixelJob` on `file`: each picture to `emit` as it comes (a worker's checked
    /// as it is read: its length, its size against what was asked and `maxPixels`, their count),
    /// the report returned. `recordLimit`: the most one picture from a worker may take.
    /// `reopened`: `file` as a worker is sent it (opened anew, with a read offset of its own).
    public func pictures(_ job: PixelJob, on file: InputFile, reopened: (InputFile) throws -> InputFile, threads: Int, maxPixels: Int,
                         recordLimit: Int, count: Int?, cancellation: JobCancellation?, isCancelled: () -> Bool,
                         emit: (PictureRecord) throws -> Void) throws -> JobReport {
        guard case .workers(let jobs, let budget) = self else {
            return try job.run(file, isCancelled: isCancelled, emit: emit)
        }
        let file = try reopened(file)
        // Pictures a call gets at once are all held: together within its memory.
        let limitsTotal: Bool
        if case .frames = job { limitsTotal = false } else { limitsTotal = true }
        var reader = PictureRecordReader(limit: recordLimit, limitsTotal: limitsTotal)
        let spec = try JSONValueEncoder.encode(JobSpec.pixels(job))
        let streams: Bool
        if case .pictureHeader = job { streams = false } else { streams = true }
        return try withoutActuallyEscaping(emit) { emit in
            try jobs.stream(spec: spec, input: file, decoders: job.decoders, threads: threads, limit: Int.max, budget: budget,
                            cancellation: cancellation,
                            into: streams ? { bytes in
                                try reader.take(bytes) { record in
                                    guard job.admits(record, maxPixels: maxPixels) else {
                                        throw PictureRecordError.malformed("a picture of \(record.pixels.width)x\(record.pixels.height) where none of that size was asked for")
                                    }
                                    try emit(record)
                                }
                            } : nil, accept: { _ in
                                guard reader.isAtRecordEnd else { throw PictureRecordError.malformed("a picture cut short") }
                                if let count, reader.count != count { throw PictureRecordError.malformed("\(reader.count) pictures of \(count)") }
                            })
        }
    }
}
