import Foundation
internal import Batch
internal import FFmpeg
internal import FileIO
internal import Jobs
internal import JSON
internal import Sandbox
internal import WebVideo

/// How far a web video has got, as `WebVideoMaker` tells its caller (about once a second).
public struct WebVideoProgress: Sendable, Equatable {
    /// Frames made so far.
    public let frames: Int
    /// Seconds of video made so far.
    public let seconds: Double
    /// The length the file states, in seconds; nil where it states none. A stranger's claim.
    public let statedSeconds: Double?
    /// The part done, 0 to 0.99, where the length is stated.
    public let fraction: Double?
}

/// The web video made of an upload.
public struct WebVideoResult: Sendable, Equatable {
    public let url: URL
    public let width: Int
    public let height: Int
    public let frames: Int
    public let seconds: Double
    public let bytes: Int
    /// `aac`, or nil for a silent video.
    public let sound: String?
    /// The video ended well before the length its file states (an upload cut short): what
    /// could be decoded, with a warning.
    public let isCutShort: Bool
    /// Things done other than asked, each one line.
    public let warnings: [String]
}

/// The video every browser plays, made of any video FFmpeg reads: the command line's
/// `transcode` (H.264 High and AAC in an MP4 whose `moov` comes first; upright, square pixels,
/// HDR tone mapped, inside `maxHeight`). In the call's sandbox (`MediaConfiguration.sandbox`)
/// like every decode; `configuration.timeout` ends a video that stops making frames for that
/// long, not a long one.
public struct WebVideoMaker: Sendable {
    public var configuration: MediaConfiguration
    /// The box the upright picture fits inside: scaled down, never up (1080 lines by default).
    public var maxWidth: Int?
    public var maxHeight: Int? = 1080
    /// libx264's preset and constant rate factor (veryfast and 23 by default).
    public var preset = "veryfast"
    public var crf = 23.0
    /// Whether the sound is kept (as AAC).
    public var keepsSound = true
    /// The longest video made, in seconds (4 hours by default).
    public var maxSeconds = 4.0 * 3600
    /// Replaces a file at the output's path; by default one there fails the call.
    public var overwrite = false

    public init(configuration: MediaConfiguration = MediaConfiguration()) {
        self.configuration = configuration
    }

    /// Writes the web video of `source` to `output`, whole or not at all; `progress` is told
    /// how far it has got. Cancelling the task ends the work (its worker) at once.
    public func makeWebVideo(of source: MediaSource, to output: URL,
                             progress: @escaping @Sendable (WebVideoProgress) -> Void = { _ in }) async throws(MediaError) -> WebVideoResult {
        var options = TranscodeOptions()
        options.maxWidth = maxWidth
        options.maxHeight = maxHeight
        options.preset = preset
        options.crf = crf
        options.keepsSound = keepsSound
        options.maxSeconds = maxSeconds
        options.limits = configuration.limits
        options.threads = configuration.threadCount
        options.output = OutputPolicy(overwrite: overwrite, isNamedByUser: true)
        guard TranscodeOptions.presets.contains(preset) else {
            throw .invalidRequest(file: source.name, reason: "the preset \(preset) is none of x264's: \(TranscodeOptions.presets.joined(separator: ", "))")
        }
        guard (0...51).contains(crf), maxSeconds > 0, maxSeconds.isFinite,
              [maxWidth, maxHeight].allSatisfy({ $0.map { (2...8192).contains($0) } ?? true }) else {
            throw .invalidRequest(file: source.name, reason: "crf takes 0 to 51, maxSeconds seconds above 0, and sides 2 to 8192")
        }
        let (configuration, spec, transcoder) = (configuration, JobSpec.transcode(options), Transcoder(options: options))
        let cancellation = try? JobCancellation()
        let report = try await BlockingWork.run(file: source.name, on: configuration.pool, cancellation: cancellation) { isCancelled in
            let file = try source.open(recognise: VideoSource.recognise, stop: SandboxedCalls.stop(configuration, isCancelled: isCancelled))
            let path: String
            if case .path(let given) = source.storage { path = given == "-" ? "./-" : given } else { path = "/proc/self/fd/\(file.descriptor)" }
            // The output is checked as the command line's -o is: never an input, never a folder.
            let plan = OutputPlan(explicitPath: output.path, template: "")
            let input = try plan.check([BatchInput(path: path, relativePath: source.name)])[0]
            if let problem = input.problem { throw MediaError.invalidRequest(file: source.name, reason: problem) }
            let runner = try WorkerRegistry.runner(for: configuration)
            return try withExtendedLifetime(file) {
                try runner.run(transcoder.job, spec: try JobRunner.Spec(spec), input: path, outputs: plan.outputs(for: input),
                               threads: configuration.threadCount, cancellation: cancellation) { made in
                    progress(WebVideoProgress(frames: made.frames, seconds: Double(made.milliseconds) / 1000,
                                              statedSeconds: made.totalMilliseconds.map { Double($0) / 1000 }, fraction: made.fraction))
                }
            }
        }
        guard let line = try? JSONValueDecoder.decode(TranscodeResult.self, from: .object(report.fields.map { JSONMember($0.name, $0.value) })) else {
            throw .damaged(file: source.name, reason: "\(WorkerFailure.malformedReply)")
        }
        return WebVideoResult(url: output, width: line.width, height: line.height, frames: line.frames, seconds: line.seconds,
                              bytes: line.bytes, sound: line.sound, isCutShort: line.cutShort, warnings: report.warnings)
    }
}
