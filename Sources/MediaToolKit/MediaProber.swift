import Foundation
internal import FileIO
internal import JSON
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
        return try await BlockingWork.run(file: source.name) { _ in
            let file = try source.open(recognise: prober.job.recognise)
            let (result, warnings) = try prober.probe(file)
            // The command line's line, read back: one schema, one rounding, whichever asks.
            let line = JSONValue.object(result.fields(includesGPS: prober.options.includesGPS).map { JSONMember($0.name, $0.value) }).text
            var report = try JSONDecoder().decode(ProbeReport.self, from: Data(line.utf8))
            report.warnings = warnings
            return report
        }
    }
}
