import Foundation
internal import FileIO
internal import Jobs
internal import JSON
internal import Sandbox
internal import MediaProbe

/// Reads what files are, from their headers and indexes: the command line's `probe`.
public struct MediaProber: Sendable {
    /// Threads and limits (which hold for what `deep` decodes).
    public var configuration: MediaConfiguration
    /// Where it was taken, when the file says; false leaves `gps` nil (before publishing, say).
    public var includesGPS = true
    /// Decodes the picture, or the video's first frame, and counts a video's frames by reading
    /// every packet: slower, and the only way to know a file decodes.
    public var deep = false

    /// A prober that reads headers only, positions included.
    public init(configuration: MediaConfiguration = MediaConfiguration()) {
        self.configuration = configuration
    }

    /// What `source` is, from its header and index (and, with `deep`, its first frame decoded).
    public func probe(_ source: MediaSource) async throws(MediaError) -> ProbeReport {
        var options = ProbeOptions()
        options.deep = deep
        options.includesGPS = includesGPS
        options.limits = configuration.limits
        options.threads = configuration.threadCount
        let prober = Prober(options: options)
        let (configuration, spec) = (configuration, JobSpec.probe(options))
        let cancellation = try? JobCancellation()
        return try await BlockingWork.run(file: source.name, on: configuration.pool, cancellation: cancellation) { isCancelled in
            let file = try source.open(recognise: Prober.recognise, stop: SandboxedCalls.stop(configuration, isCancelled: isCancelled))
            let report = try WorkerRegistry.runner(for: configuration).report(
                prober.job, spec: try JobRunner.Spec(spec), on: file, reopened: SandboxedCalls.ownOffset, threads: configuration.threadCount,
                cancellation: cancellation)
            // The report is the command line's line, which is this type's schema, wherever it was made.
            var decoded = try ProbeReport(line: report.fields, warnings: report.warnings)
            // The caller's word, whatever a worker's.
            if !prober.options.includesGPS { decoded.gps = nil }
            return decoded
        }
    }
}

extension ProbeReport {
    /// The command line's line (`ProbeResult.fields`, the one place the schema is written), as
    /// this type: whether the probe ran here or in a worker, the same decoding, so that the
    /// library's report and the command line's line cannot drift apart.
    init(line fields: [(name: String, value: JSONValue)], warnings: [String]) throws(WorkerFailure) {
        guard var report = try? JSONValueDecoder.decode(ProbeReport.self, from: .object(fields.map { JSONMember($0.name, $0.value) })) else {
            throw .malformedReply
        }
        report.warnings = warnings
        self = report
    }
}
