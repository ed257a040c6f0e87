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
        var thumbnail = ThumbnailOptions()
        thumbnail.mode = .exact
        thumbnail.limits = options.limits
        thumbnail.threads = options.threads
        thumbnail.appliesOrientation = options.appliesOrientation
        thumbnail.deinterlaces = options.deinterlaces
        thumbnail.videoStream = options.videoStream
        let size = ThumbnailSize(width: options.maxWidth, height: options.maxHeight)
        // Pieces spread over the video may be decoded in two passes side by side (`SecondPass`).
        let cores = WorkerThreads.count(forSetting: options.threads)
        let mayRunTwoPasses = cores >= 2 && options.segments >= 2 && options.from == nil && options.to == nil
        if mayRunTwoPasses { thumbnail.threads = cores - 1 }
        var schedule: PreviewSchedule?
        var encoder: (any PreviewEncoder)?
        // Kept only to encode again at lower qualities (`maxBytes`), within the run's memory.
        var kept: [PixelBuffer] = []
        var warnings: [String] = []
        var framesPastEnd = 0
        var frameCount = 0, milliseconds = 0

        /// The frame for the schedule's `index`-th time, handed on in order.
        func take(_ index: Int, _ made: MadeThumbnails) throws {
            // Times past the last frame (a container that overstates its duration, a file cut
            // short) come last: the preview ends at the last frame, not on a still of it.
            if encoder != nil, made.isPastEnd {
                framesPastEnd += 1
                return
            }
            // Frames are upright and fitted; the first one's size is the animation's.
            if encoder == nil {
                let (width, height) = (made.pictures[0].width, made.pictures[0].height)
                guard width * height <= options.largestFramePixels else { throw PreviewError.framesTooLarge(width: width, height: height) }
                try checkMemory(width: width, height: height, channels: made.pictures[0].channels < 3 ? made.pictures[0].channels + 2 : made.pictures[0].channels,
                                frames: schedule!.frames.count, decodingBytes: made.decodingBytes, aheadBytes: second == nil ? 0 : aheadBytes)
                encoder = try options.format.encoder(width: width, height: height, quality: options.quality, fps: options.fps, threads: options.threads)
            }
            let picture = try Self.canvasFrame(made.pictures[0], width: encoder!.width, height: encoder!.height)
            try encoder!.add(picture, milliseconds: schedule!.frames[index].milliseconds)
            if options.maxBytes != nil { kept.append(picture) }
            milliseconds += schedule!.frames[index].milliseconds
            frameCount += 1
            warnings += made.warnings.filter { !warnings.contains($0) }
        }

        var second: SecondPass?
        var split = 0
        let aheadBytes = min(64 << 20, options.limits.maxMemory / 8)
        do {
            try Thumbnailer(options: thumbnail).videoFrames(from: file, scheduledBy: { duration, indexedKeyframes in
                // One stretch starts where it is asked to: only pieces move to keyframes.
                let keyframes = options.from == nil && options.to == nil ? indexedKeyframes() : []
                let made = try PreviewSchedule(duration: duration, segments: options.segments, segmentLength: options.segmentLength,
                                               fps: options.fps, from: Self.seconds(options.from, duration: duration),
                                               to: Self.seconds(options.to, duration: duration), keyframes: keyframes)
                schedule = made
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
                return Array(times[..<split])
            }, sizes: [size], take)
        } catch {
            // The second pass reads the same file: it ends before the error is told.
            _ = try? second?.finish()
            throw error
        }
        if let second, let times = schedule?.frames.map(\.time) {
            let later = try second.finish()
            for (offset, made) in later.enumerated() { try take(split + offset, made) }
            // What it left, had it gone too far ahead: decoded now, in order.
            let rest = split + later.count
            if rest < times.count {
                try Thumbnailer(options: thumbnail).videoFrames(from: file, atSeconds: Array(times[rest...]), sizes: [size]) { index, made in
                    try take(rest + index, made)
                }
            }
        }
        if framesPastEnd > 0 {
            warnings.append("the video ends before \(framesPastEnd) of the frames' times: the preview ends at its last frame, \(milliseconds) ms long")
        }
        guard let schedule, let width = encoder?.width, let height = encoder?.height else { throw VideoError.noDecodableFrame(cause: nil) }
        var quality = options.quality
        var bytes = try encoder!.finish()
        // One encoder at a time: the memory counted is one's.
        encoder = nil
        if let limit = options.maxBytes {
            var lower = Self.fallbackQualities.filter { $0 < quality }[...]
            while bytes.count > limit, let next = lower.popFirst() {
                quality = next
                bytes = []
                let again = try options.format.encoder(width: width, height: height, quality: quality, fps: options.fps, threads: options.threads)
                for (picture, frame) in zip(kept, schedule.frames) { try again.add(picture, milliseconds: frame.milliseconds) }
                bytes = try again.finish()
            }
            if bytes.count > limit { throw PreviewError.tooLarge(bytes: bytes.count, limit: limit, quality: quality) }
            if quality != options.quality { warnings.append("encoded at quality \(quality), not \(options.quality), to fit in \(limit) bytes") }
        }
        // The pieces the file shows: not those past the video's last frame.
        let lastTime = schedule.frames[frameCount - 1].time
        let shown = schedule.segments.filter { $0.start <= lastTime }
        return Preview(bytes: bytes, width: width, height: height, schedule: schedule, segments: shown, frameCount: frameCount,
                       milliseconds: milliseconds, quality: quality, warnings: warnings)
    }

    /// Refuses a preview that would hold more than `--max-memory`, once its frames' size is known:
    /// its decoding, the encoder, every frame for `maxBytes`'s second tries, and the second pass's
    /// frames waiting. Not reserved from the run's shared budget beside the decoding: a job that
    /// holds its decoding's share and waits for more can wait forever on another doing the same
    /// (two previews at -j 2 did), or on its own decoding grown by a larger frame.
    private func checkMemory(width: Int, height: Int, channels: Int, frames: Int, decodingBytes: Int, aheadBytes: Int) throws {
        let encoderBytes = options.format.encoderBytes(width: width, height: height)
        let keptBytes = options.maxBytes == nil ? 0 : frames * width * height * channels
        let needed = decodingBytes + encoderBytes + keptBytes + aheadBytes
        if needed > options.limits.maxMemory {
            throw PreviewError.overMemory(needed: needed, limit: options.limits.maxMemory, keepsFrames: keptBytes > 0)
        }
    }

    /// Whether the file is a picture, by one read of its first bytes: one of the picture codecs'
    /// formats, or one FFmpeg reads as a picture (a GIF, an APNG, an image pipe's format).
    static func isPicture(_ file: InputFile) throws -> Bool {
        var start = [UInt8](repeating: 0, count: 4096)
        let got = try start.withUnsafeMutableBytes { try file.read(at: 0, into: $0) }
        return start.withUnsafeBytes { InputKind.classify(UnsafeRawBufferPointer(rebasing: $0[..<got])).isPicture }
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
