internal import FFmpeg
internal import FileIO
internal import Jobs
internal import VideoThumbnails

/// Thumbnails of any upload, picture or video, in every size a site needs from one decode: a
/// picture upright in its colours, a video's frame at a time (by default 10% in, as the command line's
/// `thumbnail`). For many frames of one video, see `VideoFrameGenerator`.
public struct ThumbnailGenerator: Sendable {
    /// Which frame of a video.
    public enum VideoTime: Sendable, Equatable {
        /// Seconds from the first frame: the exact frame on screen then.
        case seconds(Double)
        /// A share of the duration, 0 to 1.
        case fraction(Double)
        /// A keyframe early in the video that is not black, white or flat.
        case posterFrame
    }

    /// Threads and limits for each call.
    public var configuration: MediaConfiguration
    /// Which frame of a video; pictures have one.
    public var videoTime: VideoTime = .fraction(0.1)

    /// A generator of a video's frame 10% in, or of a picture.
    public init(configuration: MediaConfiguration = MediaConfiguration()) {
        self.configuration = configuration
    }

    /// One bitmap a size, in their order, with what was shown.
    public func thumbnails(of source: MediaSource, fitting sizes: [ThumbnailBounds]) async throws(MediaError) -> Thumbnails {
        var options = ThumbnailOptions()
        switch videoTime {
        case .seconds(let seconds):
            try VideoFrameGenerator.checkTime(seconds, file: source.name)
            options.time = .at(.seconds(seconds))
        case .fraction(let fraction):
            guard fraction >= 0, fraction <= 1 else { throw .invalidRequest(file: source.name, reason: "a fraction of \(fraction): fractions are from 0 to 1") }
            options.time = .at(.fraction(fraction))
        case .posterFrame:
            options.time = .posterFrame
        }
        options.limits = configuration.limits
        options.threads = configuration.threadCount
        options.encoding.threads = configuration.threadCount
        options.sizes = try ThumbnailBounds.sizes(sizes, file: source.name)
        let made = try await SandboxedCalls.pictures(.thumbnails(options), of: { stop in try source.open(recognise: Thumbnailer.recognise, stop: stop) },
                                                     name: source.name, count: options.sizes.count, configuration: configuration)
        return Thumbnails(images: made.map(Bitmap.init), seconds: made[0].seconds, orientation: ImageOrientation(made[0].orientation),
                          warnings: made[0].warnings)
    }
}

/// What `ThumbnailGenerator` made.
public struct Thumbnails: Sendable {
    /// One a size, in the order asked.
    public let images: [Bitmap]
    /// The time of the video's frame shown; nil for a picture.
    public let seconds: Double?
    /// The orientation applied to make it upright.
    public let orientation: ImageOrientation
    /// What was done other than asked, one line each.
    public let warnings: [String]
}
