import FFmpeg
import MediaFormats
import FileIO
import ImageCodecs
import Imaging
import VideoThumbnails
import WebPCodec
import WorkerPool

/// A moving preview: what was made, and the file's bytes.
public struct Preview: Sendable {
    public let bytes: [UInt8]
    public let width: Int
    public let height: Int
    public let schedule: PreviewSchedule
    /// The schedule's pieces the file shows: all but those past the video's last frame.
    public let segments: [PreviewSchedule.Segment]
    /// The frames in the file and how long they last: the schedule's, but for times past the
    /// video's last frame.
    public let frameCount: Int
    public let milliseconds: Int
    /// The quality the file was encoded at (lower than asked when `maxBytes` needed it).
    public let quality: Int
    public let warnings: [String]
}

/// Makes a video's hover preview, an animated WebP or an MP4 (`PreviewFormat`): the frames of the
/// schedule, each decoded once (the pieces reached by seeking where there is an index, the later
/// half of them on a second thread where there are cores for it), upright, at display aspect, tone
/// mapped and deinterlaced as thumbnails are, encoded as they come.
public struct Previewer: Sendable {
    public let options: PreviewOptions

    /// The qualities tried, in turn, for `maxBytes`.
    static let fallbackQualities = [60, 45, 30, 15]

    public init(options: PreviewOptions) {
        self.options = options
    }

    public func makePreview(from file: InputFile) throws -> Preview {
        // FFmpeg would open a still picture as a video of one frame, and a GIF is a picture too
        // (probe and thumbnail say so): an animation already.
        if try Self.isPicture(file) { throw PreviewError.picture }
        var thumbnail = thumbnailOptions
        // Pieces spread over the video may be decoded in two passes side by side (`SecondPass`).
        let cores = WorkerThreads.count(forSetting: options.threads)
        let mayRunTwoPasses = cores >= 2 && options.segments >= 2 && options.from == nil && options.to == nil
        if mayRunTwoPasses { thumbnail.threads = cores - 1 }
        var assembly: PreviewAssembly?
        var second: SecondPass?
        var split = 0
        let aheadBytes = min(64 << 20, options.limits.maxMemory / 8)
        do {
            try Thumbnailer(options: thumbnail).videoFrames(from: file, scheduledBy: { duration, indexedKeyframes in
                let keyframes = options.from == nil && options.to == nil ? indexedKeyframes() : []
                let made = try schedule(duration: duration, keyframes: { keyframes })
                let times = made.frames.map(\.time)
                split = times.count
                // The later half of the pieces from a second pass, where an index lets it seek there.
                if mayRunTwoPasses, !keyframes.isEmpty, made.segments.count >= 2 {
                    let laterStart = made.segments[made.segments.count / 2].start
                    split = made.frames.prefix { $0.time < laterStart }.count
                    var later = thumbnail
                    later.threads = 1
                    second = SecondPass(file: file, options: later, times: Array(times[split...]), size: size,
                                        maxBytes: aheadBytes)
                }
                assembly = PreviewAssembly(previewer: self, schedule: made, aheadBytes: second == nil ? 0 : aheadBytes)
                return Array(times[..<split])
            }, sizes: [size]) { index, made in try assembly!.take(index, made) }
        } catch {
            // The second pass reads the same file: it ends before the error is told.
            second?.abandon()
            throw error
        }
        guard let assembly else {
            second?.abandon()
            throw VideoError.noDecodableFrame(cause: nil)
        }
        if let second {
            let times = assembly.schedule.frames.map(\.time)
            // Its frames to the encoder as it makes them, now that the first pass's are in.
            var later = 0
            _ = try Self.framesBeforeTheEnd {
                try second.drain { made in
                    try assembly.take(split + later, made)
                    later += 1
                }
            }
            // What it left, had it gone too far ahead: decoded now, in order.
            let rest = split + later
            if rest < times.count {
                let decoded: Void? = try Self.framesBeforeTheEnd {
                    try Thumbnailer(options: thumbnail).videoFrames(from: file, atSeconds: Array(times[rest...]), sizes: [size]) { index, made in
                        try assembly.take(rest + index, made)
                    }
                }
                // A file cut short before the later pieces: they are past its end, as one pass finds them.
                if decoded == nil { assembly.endsBefore(times.count - rest) }
            }
        }
        return try assembly.finish()
    }

    /// What `pass` gives, or nil where it found no frame at all: a pass that seeks past where a
    /// file cut short ends finds none, where one pass would have found its times past the end.
    private static func framesBeforeTheEnd<Result>(_ pass: () throws -> Result) throws -> Result? {
        do {
            return try pass()
        } catch let error as VideoError {
            if case .noDecodableFrame = error { return nil }
            throw error
        }
    }

    /// How the preview's frames are made from a video's: as thumbnails of the exact frame, at its size.
    var thumbnailOptions: ThumbnailOptions {
        var thumbnail = ThumbnailOptions()
        thumbnail.mode = .exact
        thumbnail.limits = options.limits
        thumbnail.threads = options.threads
        thumbnail.appliesOrientation = options.appliesOrientation
        thumbnail.deinterlaces = options.deinterlaces
        thumbnail.videoStream = options.videoStream
        return thumbnail
    }

    var size: ThumbnailSize { ThumbnailSize(width: options.maxWidth, height: options.maxHeight) }

    /// The schedule of a video of `duration` (nil when it states none), its pieces moved to the
    /// keyframes its index lists unless a stretch is asked for (`from`, `to`).
    func schedule(duration: Double?, keyframes: () -> [Double]) throws -> PreviewSchedule {
        // One stretch starts where it is asked to: only pieces move to keyframes.
        let keyframes = options.from == nil && options.to == nil ? keyframes() : []
        return try PreviewSchedule(duration: duration, segments: options.segments, segmentLength: options.segmentLength,
                                   fps: options.fps, from: Self.seconds(options.from, duration: duration),
                                   to: Self.seconds(options.to, duration: duration), keyframes: keyframes)
    }

    /// The preview of a video whose frames come from a pass that another job makes over it (an
    /// ingest's storyboard): the times it needs, and what takes each frame found for them, in order.
    /// `finish` gives the preview, once every time was taken.
    public func frames(alongsideIn video: VideoSource) throws -> (times: [Double], assembly: PreviewAssembly) {
        if video.isPicture { throw PreviewError.picture }
        let made = try schedule(duration: video.durationSeconds, keyframes: { video.indexedKeyframeSeconds() })
        return (made.frames.map(\.time), PreviewAssembly(previewer: self, schedule: made, aheadBytes: 0))
    }

    /// A frame found in `video` for the schedule's time `seconds`, as the preview takes it.
    public func picture(of located: VideoSource.LocatedFrame, askedAt seconds: Double, in video: VideoSource) throws -> MadeThumbnails {
        try Thumbnailer(options: thumbnailOptions).pictures(of: located, askedAt: seconds, in: video, sizes: [size])
    }

    /// Refuses a preview that would hold more than `--max-memory`, once its frames' size is known:
    /// its decoding, the encoder, every frame for `maxBytes`'s second tries, and the second pass's
    /// frames waiting. Not reserved from the run's shared budget beside the decoding: a job that
    /// holds its decoding's share and waits for more can wait forever on another doing the same
    /// (two previews at -j 2 did), or on its own decoding grown by a larger frame.
    func checkMemory(width: Int, height: Int, channels: Int, frames: Int, decodingBytes: Int, aheadBytes: Int) throws {
        // The encoder's, and the frames its thread holds.
        let encoderBytes = options.format.encoderBytes(width: width, height: height) + EncodingThread.heldFrames * width * height * channels
        let keptBytes = options.maxBytes == nil ? 0 : frames * width * height * channels
        let needed = decodingBytes + encoderBytes + keptBytes + aheadBytes
        if needed > options.limits.maxMemory {
            throw PreviewError.overMemory(needed: needed, limit: options.limits.maxMemory, keepsFrames: keptBytes > 0)
        }
    }

    /// Whether the file is a picture, by one read of its first bytes: one of the picture codecs'
    /// formats, or one FFmpeg reads as a picture (a GIF, an APNG, an image pipe's format).
    static func isPicture(_ file: InputFile) throws -> Bool {
        try InputKind.of(file).isPicture
    }

    /// A time in seconds; a share of the duration needs the duration.
    static func seconds(_ time: TimeSpec?, duration: Double?) throws(PreviewError) -> Double? {
        switch time {
        case nil: return nil
        case .seconds(let seconds): return seconds
        case .fraction(let fraction):
            guard let duration else { throw .unknownDuration }
            return fraction * duration
        }
    }

    /// A frame as the encoder takes it: 8-bit RGB or RGBA at the canvas's size. A stream whose
    /// coded size changes gives frames of other sizes, scaled to the first's so that none is lost.
    static func canvasFrame(_ made: PixelBuffer, width: Int, height: Int) throws -> PixelBuffer {
        var picture = made.withBytesPerSample(1)
        if picture.channels < 3 {
            // Grey (and grey with alpha) spread over red, green and blue.
            let alpha = picture.channels == 2
            var bytes = [UInt8](repeating: 255, count: picture.width * picture.height * (alpha ? 4 : 3))
            for pixel in 0..<(picture.width * picture.height) {
                let grey = picture.bytes[pixel * picture.channels]
                let at = pixel * (alpha ? 4 : 3)
                bytes[at] = grey
                bytes[at + 1] = grey
                bytes[at + 2] = grey
                if alpha { bytes[at + 3] = picture.bytes[pixel * 2 + 1] }
            }
            picture = PixelBuffer(width: picture.width, height: picture.height, channels: alpha ? 4 : 3, bytes: bytes)
        }
        if picture.width != width || picture.height != height { picture = try picture.resized(width: width, height: height) }
        return picture
    }
}
