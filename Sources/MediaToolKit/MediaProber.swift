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
            guard let workers = try WorkerRegistry.workers(for: configuration) else {
                let (result, warnings) = try prober.probe(file)
                return ProbeReport(result, includesGPS: prober.options.includesGPS, warnings: warnings)
            }
            let job = prober.job
            var decoded: ProbeReport?
            _ = try workers.stream(spec: try JSONValueEncoder.encode(spec), input: try SandboxedCalls.ownOffset(file),
                                   decoders: job.decoders, threads: configuration.threadCount,
                                   limit: 0, budget: configuration.sharedBudget, cancellation: cancellation, into: nil) { report in
                // The worker's report is the command line's line, which is this type's schema.
                let fields = report.fields.map { JSONMember($0.name, $0.value) }
                    + [JSONMember("warnings", .array(report.warnings.map(JSONValue.string)))]
                guard let report = try? JSONValueDecoder.decode(ProbeReport.self, from: .object(fields)) else { throw WorkerFailure.malformedReply }
                decoded = report
            }
            guard var decoded else { throw WorkerFailure.malformedReply }
            // The caller's word, whatever the worker's.
            if !prober.options.includesGPS { decoded.gps = nil }
            return decoded
        }
    }
}

extension ProbeReport {
    /// The probe job's result, rounded as the command line's line rounds it (the tests decode the
    /// command line's lines and compare: one schema).
    init(_ result: ProbeResult, includesGPS: Bool, warnings: [String]) {
        func rounded(_ value: Double?, _ places: Int) -> Double? { value.map { ProbeResult.rounded($0, places: places) } }
        kind = Kind(rawValue: result.kind.rawValue)!
        format = result.format
        mime = result.mime
        width = result.width
        height = result.height
        codedWidth = result.codedWidth
        codedHeight = result.codedHeight
        orientation = result.orientation
        rotation = result.rotation
        sampleAspectRatio = result.sampleAspectRatio
        duration = rounded(result.duration, 6)
        fps = rounded(result.fps, 3)
        nominalFPS = rounded(result.nominalFPS, 3)
        frames = result.frames
        codec = result.codec
        profile = result.profile
        bitDepth = result.bitDepth
        pixelFormat = result.pixelFormat
        interlaced = result.interlaced
        keyframeInterval = result.keyframeInterval
        bitRate = result.bitRate
        hdr = result.hdr
        dolbyVision = result.dolbyVision
        colorPrimaries = result.colourPrimaries
        colorTransfer = result.colourTransfer
        colorMatrix = result.colourMatrix
        colorRange = result.colourRange
        audio = result.audio?.map { AudioStream(codec: $0.codec, channels: $0.channels, sampleRate: $0.sampleRate, language: $0.language) }
        subtitles = result.subtitles?.map { SubtitleStream(codec: $0.codec, language: $0.language) }
        coverArt = result.coverArt
        streams = result.streams
        alpha = result.alpha
        icc = result.icc
        hasEmbeddedThumbnail = result.kind == .picture ? result.embeddedThumbnail != nil : nil
        embeddedThumbnail = result.embeddedThumbnail.map { Size(width: $0.width, height: $0.height) }
        created = result.capture.created
        make = result.capture.make
        model = result.capture.model
        software = result.capture.software
        gps = includesGPS ? result.capture.position.map {
            Position(latitude: ProbeResult.rounded($0.latitude, places: 7), longitude: ProbeResult.rounded($0.longitude, places: 7),
                     altitude: rounded($0.altitude, 3))
        } : nil
        decodes = result.decodes
        self.warnings = warnings
    }
}
