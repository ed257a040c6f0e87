import FFmpeg
import FileIO
import Imaging
import VideoThumbnails
import WebPCodec

/// A moving preview: what was made, and the file's bytes.
public struct Preview: Sendable {
    public let bytes: [UInt8]
    public let width: Int
    public let height: Int
    public let schedule: PreviewSchedule
    /// The quality the file was encoded at (lower than asked when `maxBytes` needed it).
    public let quality: Int
    public let warnings: [String]
}

public enum PreviewError: Error, Equatable, CustomStringConvertible {
    case tooLarge(bytes: Int, limit: Int, quality: Int)

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let limit, let quality):
            return "the preview takes \(bytes) bytes even at quality \(quality), over the limit of \(limit) (--max-bytes): ask for fewer or smaller frames"
        }
    }
}

/// Makes a video's hover preview as an animated WebP: the frames of the schedule from one pass over
/// the file (each decoded once, stretches between the pieces skipped where there is an index),
/// upright, at display aspect, tone mapped and deinterlaced as thumbnails are.
public struct Previewer: Sendable {
    public let options: PreviewOptions

    /// The qualities tried, in turn, for `maxBytes`.
    static let fallbackQualities = [60, 45, 30, 15]

    public init(options: PreviewOptions) {
        self.options = options
    }

    public func makePreview(from file: InputFile) throws -> Preview {
        var thumbnail = ThumbnailOptions()
        thumbnail.mode = .exact
        thumbnail.limits = options.limits
        thumbnail.threads = options.threads
        thumbnail.appliesOrientation = options.appliesOrientation
        thumbnail.deinterlaces = options.deinterlaces
        thumbnail.videoStream = options.videoStream
        let size = ThumbnailSize(width: options.maxWidth, height: options.maxHeight)
        var schedule: PreviewSchedule?
        var encoder: WebPAnimationEncoder?
        // Kept only to encode again at lower qualities (`maxBytes`), within the run's memory.
        var kept: [PixelBuffer] = []
        var keptBytes = 0
        var warnings: [String] = []
        try Thumbnailer(options: thumbnail).videoFrames(from: file, scheduledBy: { duration in
            let made = try PreviewSchedule(duration: duration, segments: options.segments, segmentLength: options.segmentLength,
                                           fps: options.fps, from: options.from, to: options.to)
            schedule = made
            return made.frames.map(\.time)
        }, sizes: [size]) { index, made in
            // Frames are upright and fitted; the first one's size is the animation's.
            let picture = made.pictures[0].withBytesPerSample(1)
            if encoder == nil { encoder = try WebPAnimationEncoder(width: picture.width, height: picture.height, quality: options.quality) }
            try Self.add(picture, milliseconds: schedule!.frames[index].milliseconds, to: encoder!)
            if options.maxBytes != nil {
                keptBytes += picture.bytes.count
                if keptBytes > options.limits.maxMemory {
                    throw DecodeLimitError.tooMuchMemory(needed: keptBytes, limit: options.limits.maxMemory, width: picture.width, height: picture.height)
                }
                kept.append(picture)
            }
            warnings += made.warnings.filter { !warnings.contains($0) }
        }
        guard let schedule, let encoder else { throw VideoError.noDecodableFrame(cause: nil) }
        var quality = options.quality
        var bytes = try encoder.finish()
        if let limit = options.maxBytes {
            var lower = Self.fallbackQualities.filter { $0 < quality }[...]
            while bytes.count > limit, let next = lower.popFirst() {
                quality = next
                let again = try WebPAnimationEncoder(width: encoder.width, height: encoder.height, quality: quality)
                for (picture, frame) in zip(kept, schedule.frames) { try Self.add(picture, milliseconds: frame.milliseconds, to: again) }
                bytes = try again.finish()
            }
            if bytes.count > limit { throw PreviewError.tooLarge(bytes: bytes.count, limit: limit, quality: quality) }
            if quality != options.quality { warnings.append("encoded at quality \(quality), not \(options.quality), to fit in \(limit) bytes") }
        }
        return Preview(bytes: bytes, width: encoder.width, height: encoder.height, schedule: schedule, quality: quality, warnings: warnings)
    }

    /// A frame of the canvas's size (a stream whose size changes gives others, which are passed over).
    private static func add(_ picture: PixelBuffer, milliseconds: Int, to encoder: WebPAnimationEncoder) throws {
        guard picture.width == encoder.width, picture.height == encoder.height, picture.channels >= 3 else { return }
        try picture.bytes.withUnsafeBytes { try encoder.add(pixels: $0, channels: picture.channels, milliseconds: milliseconds) }
    }
}
