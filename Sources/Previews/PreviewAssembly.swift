import FFmpeg
import Imaging
import VideoThumbnails

/// A preview put together from its frames, handed in the order of its schedule: each encoded as it
/// comes, and the file's bytes at the end (encoded again at lower qualities where `maxBytes` asks).
public final class PreviewAssembly {
    private let previewer: Previewer
    public let schedule: PreviewSchedule
    /// What frames decoded ahead (a second pass's) may hold meanwhile.
    private let aheadBytes: Int
    private var encoder: EncodingThread?
    /// Kept only to encode again at lower qualities (`maxBytes`), within the run's memory.
    private var kept: [PixelBuffer] = []
    private var warnings: [String] = []
    private var framesPastEnd = 0
    private var frameCount = 0
    private var milliseconds = 0

    init(previewer: Previewer, schedule: PreviewSchedule, aheadBytes: Int) {
        self.previewer = previewer
        self.schedule = schedule
        self.aheadBytes = aheadBytes
    }

    private var options: PreviewOptions { previewer.options }

    /// The frame for the schedule's `index`-th time, handed on in order.
    public func take(_ index: Int, _ made: MadeThumbnails) throws {
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
            try previewer.checkMemory(width: width, height: height, channels: made.pictures[0].channels < 3 ? made.pictures[0].channels + 2 : made.pictures[0].channels,
                                      frames: schedule.frames.count, decodingBytes: made.decodingBytes, aheadBytes: aheadBytes)
            encoder = EncodingThread(encoder: try options.format.encoder(width: width, height: height, quality: options.quality,
                                                                          fps: options.fps, threads: options.threads))
        }
        let picture = try Previewer.canvasFrame(made.pictures[0], width: encoder!.width, height: encoder!.height)
        try encoder!.add(picture, milliseconds: schedule.frames[index].milliseconds)
        if options.maxBytes != nil { kept.append(picture) }
        milliseconds += schedule.frames[index].milliseconds
        frameCount += 1
        warnings += made.warnings.filter { !warnings.contains($0) }
    }

    /// The last `count` frames' times are past the video's end (a second pass found none of them).
    func endsBefore(_ count: Int) {
        framesPastEnd += count
    }

    /// The preview, once every frame was taken.
    public func finish() throws -> Preview {
        if framesPastEnd > 0 {
            warnings.append("the video ends before \(framesPastEnd) of the frames' times: the preview ends at its last frame, \(milliseconds) ms long")
        }
        guard let width = encoder?.width, let height = encoder?.height else { throw VideoError.noDecodableFrame(cause: nil) }
        var quality = options.quality
        var bytes = try encoder!.finish()
        // One encoder at a time: the memory counted is one's.
        encoder = nil
        if let limit = options.maxBytes {
            var lower = Previewer.fallbackQualities.filter { $0 < quality }[...]
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
}
