import FFmpeg
import MediaFormats
import ImageCodecs
import Imaging
import FileIO
import JSON

/// One picture a thumbnail job wrote.
public struct ThumbnailOutput: Sendable {
    public let path: String
    /// The size asked for, as `{size}` spells it.
    public let size: String
    public let width: Int
    public let height: Int
}

/// What making the thumbnails of one input did.
public struct ThumbnailReport: Sendable {
    /// The first output (the one planned first).
    public var output: String { outputs[0].path }
    /// The presentation time of the frame written, from the stream's first frame; nil for a picture.
    public let seconds: Double?
    /// Every output, in the order of the sizes.
    public let outputs: [ThumbnailOutput]
    public var width: Int { outputs[0].width }
    public var height: Int { outputs[0].height }
    /// The orientation applied to make it upright.
    public let orientation: Orientation
    /// Things done other than asked, each one line.
    public let warnings: [String]
}

/// Makes the thumbnails of a video (the exact frame at a time) or a picture, upright, at display
/// aspect, in their colours, in every size asked from one decode.
public struct Thumbnailer: Sendable {
    public let options: ThumbnailOptions

    public init(options: ThumbnailOptions) {
        self.options = options
    }

    /// A picture of a format `PictureFormat` reads, or media FFmpeg opens.
    @Sendable public static func recognise(_ start: UnsafeRawBufferPointer) throws {
        try InputKind.recognise(start)
    }

    /// The sizes the run asks for: `--size`s, or one from `--width`/`--height`, or the display size.
    public var sizes: [ThumbnailSize] {
        if !options.sizes.isEmpty { return options.sizes }
        if options.maxWidth != nil || options.maxHeight != nil {
            return [ThumbnailSize(width: options.maxWidth, height: options.maxHeight, enlarges: true)]
        }
        return [.original]
    }

    /// The thumbnails of an open input, each written whole to its output's temporary (which the caller moves into place).
    public func makeThumbnails(from file: InputFile, into outputs: any JobOutputs) throws -> ThumbnailReport {
        // The sizes of the outputs planned: all asked for, or (--skip-existing) those not made yet.
        let wanted = outputs.planned.map { planned in sizes.first { $0.description == planned.variant } ?? sizes[0] }
        let made = try pictures(from: file, sizes: wanted)
        var warnings = made.warnings
        var written: [ThumbnailOutput] = []
        let encoder = ImageEncoders.encoder(for: options.format, settings: options.encoding)
        let reservation = try options.format.reserveEncoder(for: made.pictures, settings: options.encoding, maxMemory: options.limits.maxMemory, budget: options.limits.budget)
        defer { withExtendedLifetime(reservation) {} }
        for (index, pixels) in made.pictures.enumerated() {
            let planned = outputs.planned[index]
            // The first is open already; the job opens the others by their planned names.
            let descriptor = index == 0 ? outputs.primary : try outputs.open(planned.path, namedByUser: false)
            let left = try encoder.write(pixels, metadata: made.metadata, to: descriptor)
            if index > 0 { try outputs.finish(descriptor) }
            // An encoder's note is said once, not once a size.
            warnings += left.filter { !warnings.contains($0) }
            written.append(ThumbnailOutput(path: planned.path, size: wanted[index].description, width: pixels.width, height: pixels.height))
        }
        return ThumbnailReport(seconds: made.seconds, outputs: written, orientation: made.orientation, warnings: warnings)
    }

    /// The pictures of an open input, one per size, in memory: a picture's, or a video's frame at the options' time.
    public func pictures(from file: InputFile, sizes: [ThumbnailSize]) throws -> MadeThumbnails {
        if try InputKind.pictureCodec(of: file) != nil {
            return try PictureThumbnails(options: options).make(from: file, sizes: sizes)
        }
        return try VideoFrameThumbnails(options: options).make(from: file, sizes: sizes)
    }

    /// A video's frames at many times (ascending, the options' seek mode), each in every size, from
    /// one pass over the file: `body` has each in the order of the times, with the index of its time.
    public func videoFrames(from file: InputFile, atSeconds times: [Double], sizes: [ThumbnailSize],
                            _ body: (_ index: Int, _ made: MadeThumbnails) throws -> Void) throws {
        try VideoFrameThumbnails(options: options).make(from: file, atSeconds: { _, _ in times }, sizes: sizes, body)
    }

    /// The time of the frame of `video` the options ask for (a poster frame chosen, a share of
    /// the duration in seconds), and what is said of it (a duration unknown).
    public func frameTime(in video: VideoSource, of file: InputFile) throws -> (seconds: Double, warnings: [String]) {
        let (seconds, _, warnings) = try VideoFrameThumbnails(options: options).time(in: video, of: file, threads: options.threads)
        return (seconds, warnings)
    }

    /// A frame another pass found (`VideoSource.frames(atSeconds:mode:)`) for the time `seconds`,
    /// in every size, as this thumbnailer makes a video's frame.
    public func pictures(of located: VideoSource.LocatedFrame, askedAt seconds: Double, in video: VideoSource,
                         sizes: [ThumbnailSize]) throws -> MadeThumbnails {
        try VideoFrameThumbnails(options: options).pictures(of: located, askedAt: seconds, in: video, sizes: sizes)
    }

    /// The same, the times chosen once the video's duration (nil when the file states none) is
    /// known; `keyframes` reads the times of those its index lists (for Matroska, seeking to them).
    public func videoFrames(from file: InputFile, scheduledBy schedule: (_ duration: Double?, _ keyframes: () -> [Double]) throws -> [Double], sizes: [ThumbnailSize],
                            _ body: (_ index: Int, _ made: MadeThumbnails) throws -> Void) throws {
        try VideoFrameThumbnails(options: options).make(from: file, atSeconds: schedule, sizes: sizes, body)
    }
}

/// What a source gave: the pictures, one per size, and what goes with them.
public struct MadeThumbnails: Sendable {
    /// One per size asked, in their order.
    public var pictures: [PixelBuffer]
    public var metadata: PictureMetadata
    /// The presentation time of a video's frame, from the stream's first frame; nil for a picture.
    public var seconds: Double?
    /// The orientation applied to make it upright.
    public var orientation: Orientation
    public var warnings: [String]
    /// The time asked for lies past a video's last frame, which this is (a warning says so).
    public var isPastEnd = false
    /// What the video's decoding holds of the run's memory while its frames come (0 for a picture).
    public var decodingBytes = 0
}
