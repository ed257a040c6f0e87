import Foundation
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
        try WorkerRegistry.runner(for: configuration).pictures(
            job, on: file, reopened: ownOffset, threads: configuration.threadCount, maxPixels: configuration.maxPixels,
            recordLimit: recordLimit(configuration), count: count, cancellation: cancellation, isCancelled: isCancelled, emit: emit)
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
