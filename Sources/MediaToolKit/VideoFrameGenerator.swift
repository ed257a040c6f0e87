internal import FFmpeg
internal import FileIO
internal import MediaFormats
internal import Jobs
internal import ImageCodecs
internal import Imaging
internal import VideoThumbnails

/// Stills of a video at times: the counterpart of `AVAssetImageGenerator`.
///
/// Set its properties, then ask for one frame with `image(at:)` or for many with `images(at:)`,
/// which reads the file once. The frames are upright (the display matrix applied) at their display
/// aspect, deinterlaced, and HDR (PQ, HLG) is tone mapped to SDR, as the command line's `thumbnail`.
public struct VideoFrameGenerator: Sendable {
    /// The video.
    public let source: MediaSource
    /// Threads and limits for each call.
    public var configuration: MediaConfiguration
    /// The box frames fit inside, aspect kept; nil (the default) for the display size.
    /// `AVAssetImageGenerator.maximumSize`, where a zero side means "any".
    public var maximumSize: ThumbnailBounds?
    /// Turns the frame upright by the video's display matrix. True by default, unlike Apple's: a
    /// phone's video is stored on its side, and a thumbnail of it should not be.
    public var appliesPreferredTrackTransform = true
    /// How far before the time asked the frame may lie, in seconds. Zero (the default) with zero
    /// after gives the exact frame on screen at the time; `.infinity` gives the keyframe at or before
    /// it, which is decoded alone and is fastest. A finite tolerance takes that keyframe when it lies
    /// within it, and the exact frame otherwise.
    public var requestedTimeToleranceBefore: Double = 0
    /// How far after the time asked the frame may lie, in seconds. A frame is never taken from after
    /// the time asked (the frame on screen then, or a keyframe before it, always lies at or before
    /// it), so this is accepted for the shape of Apple's API and changes nothing.
    public var requestedTimeToleranceAfter: Double = 0
    /// HDR frames tone mapped to SDR (the default); false keeps them as 16-bit BT.2020 PQ or HLG
    /// samples, their code points in the bitmap's PNG (`cICP`).
    public var toneMapsHDR = true
    /// An interlaced frame's fields are blended into one picture.
    public var deinterlaces = true
    /// The video stream, counted from 0 among those that are not cover art; nil for the main one.
    public var videoStream: Int?

    /// A generator of `source`'s frames; nothing is read until a frame is asked for.
    public init(_ source: MediaSource, configuration: MediaConfiguration = MediaConfiguration()) {
        self.source = source
        self.configuration = configuration
    }

    /// The frame shown at `seconds` from the first frame (within the tolerances), with its own time.
    /// A time past the end gives the last frame, with a warning.
    public func image(at seconds: Double) async throws(MediaError) -> GeneratedFrame {
        try checkTolerances()
        try Self.checkTime(seconds, file: source.name)
        var options = options(mode: requestedTimeToleranceBefore == 0 ? .exact : .keyframe, at: seconds)
        options.sizes = try sizes
        let source = self.source
        let made = try await SandboxedCalls.pictures(.frame(options, seconds: seconds, tolerance: requestedTimeToleranceBefore),
                                                     of: { stop in try Self.openVideo(source, stop: stop) }, name: source.name, count: 1,
                                                     configuration: configuration)[0]
        return GeneratedFrame(requestedTime: seconds, actualTime: made.seconds ?? 0, image: Bitmap(made),
                              orientation: ImageOrientation(made.orientation), warnings: made.warnings)
    }

    /// The frames at many times from one pass over the file, as they are decoded: in ascending order
    /// of time (each says which time it answers), whatever the order asked. The file is read forward
    /// once; stretches no time falls in are skipped where the container has an index. A frame is
    /// decoded only when the one before it has been taken, so memory holds one frame whatever the
    /// number of times. Cancelling the task that iterates, or dropping the iterator, stops the decoding.
    public func images(at times: [Double]) -> VideoFrames {
        VideoFrames(generator: self, times: times)
    }

    /// The source opened, refused when it is a picture: FFmpeg would take a JPEG or PNG for a video of
    /// one frame and show it as stored, its orientation ignored.
    static func openVideo(_ source: MediaSource, stop: (() throws -> Void)? = nil) throws(MediaError) -> InputFile {
        let file = try source.open(recognise: VideoSource.recognise, stop: stop)
        let picture: PictureFormat.Name?
        do {
            picture = try InputKind.pictureCodec(of: file)
        } catch {
            throw MediaError(error, file: source.name)
        }
        if picture != nil {
            throw .noVideo(file: source.name, reason: "a picture, not a video (ImageSource reads pictures)")
        }
        return file
    }

    /// The options of the thumbnail job that makes the frames.
    func options(mode: VideoSource.SeekMode, at seconds: Double) -> ThumbnailOptions {
        var options = ThumbnailOptions()
        options.time = .at(.seconds(seconds))
        options.mode = mode
        options.limits = configuration.limits
        options.threads = configuration.threadCount
        options.appliesOrientation = appliesPreferredTrackTransform
        options.hdr = toneMapsHDR ? .toneMap : .keep
        options.deinterlaces = deinterlaces
        options.videoStream = videoStream
        return options
    }

    var sizes: [ThumbnailSize] {
        get throws(MediaError) {
            try ThumbnailBounds.sizes([maximumSize.map { ThumbnailBounds(width: $0.width == 0 ? nil : $0.width, height: $0.height == 0 ? nil : $0.height,
                                                                     enlarges: $0.enlarges) } ?? .original],
                                  file: source.name)
        }
    }

    /// A time a frame is asked at: from 0 to the largest a time may be, as the command line takes them.
    static func checkTime(_ seconds: Double, file: String) throws(MediaError) {
        guard seconds.isFinite, seconds >= 0, seconds <= TimeSpec.maxSeconds else {
            throw .invalidRequest(file: file, reason: "a time of \(seconds) s: times are from 0 to \(Int(TimeSpec.maxSeconds)) s")
        }
    }

    func checkTolerances() throws(MediaError) {
        for (name, value) in [("before", requestedTimeToleranceBefore), ("after", requestedTimeToleranceAfter)] where !(value >= 0) {
            throw .invalidRequest(file: source.name, reason: "a tolerance \(name) of \(value) s: tolerances are 0 or more")
        }
    }
}

/// A frame a `VideoFrameGenerator` made.
public struct GeneratedFrame: Sendable {
    /// The time asked for, in seconds.
    public let requestedTime: Double
    /// The frame's own presentation time, from the first frame: `AVAssetImageGenerator`'s `actualTime`.
    public let actualTime: Double
    /// The frame, upright, at its display aspect, within `maximumSize`.
    public let image: Bitmap
    /// The display matrix's turn that was applied (`.up` when none was, or not asked for).
    public let orientation: ImageOrientation
    /// What was done other than asked (a time past the end, a damaged frame), one line each.
    public let warnings: [String]
}
