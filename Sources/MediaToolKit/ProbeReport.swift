/// What a picture, video or sound file is, from its header and index: the command line's `probe`
/// line as a value. Decoding a line `mediatool probe` printed gives the same value as
/// `MediaProber.probe(_:)`; docs/probe.md documents each field (units, when nil).
/// Encoding leaves nil fields out where the command line writes `null`.
public struct ProbeReport: Sendable, Equatable, Codable {
    /// What the file holds.
    public enum Kind: String, Sendable, Codable {
        /// A still or animated picture (GIF and FFmpeg's image formats included).
        case picture
        /// A video stream that is not cover art.
        case video
        /// Sound only (cover art allowed).
        case audio
    }

    /// A size in pixels.
    public struct Size: Sendable, Equatable, Codable {
        /// Pixels across.
        public var width: Int
        /// Pixels down.
        public var height: Int
    }

    /// A sound stream.
    public struct AudioStream: Sendable, Equatable, Codable {
        /// FFmpeg's codec name (`aac`, `opus`, `mp3`).
        public var codec: String
        /// Channels (2 for stereo).
        public var channels: Int
        /// Samples a second.
        public var sampleRate: Int
        /// The stream's language tag, where stated (`eng`).
        public var language: String?

        enum CodingKeys: String, CodingKey {
            case codec, channels, sampleRate = "sample_rate", language
        }
    }

    /// A subtitle stream.
    public struct SubtitleStream: Sendable, Equatable, Codable {
        /// FFmpeg's codec name (`mov_text`, `subrip`).
        public var codec: String
        /// The stream's language tag, where stated.
        public var language: String?
    }

    /// Where it was taken: degrees north and east (WGS 84, negative south and west), metres above sea level.
    public struct Position: Sendable, Equatable, Codable {
        /// Degrees north; negative south.
        public var latitude: Double
        /// Degrees east; negative west.
        public var longitude: Double
        /// Nil when not stated; negative below sea level.
        public var altitude: Double?
    }

    /// Where in the file a part of it lies: a Motion Photo's video.
    public struct ByteRange: Sendable, Equatable, Codable {
        public var offset: Int
        public var length: Int
    }

    /// Picture, video or sound.
    public var kind: Kind
    /// The file's format, from its bytes (never its name): `jpeg`, `png`, `webp`, `heic`, `avif`,
    /// `tiff`, `gif`, `mp4`, `mov`, `m4a`, `mkv`, `webm`, `ts`, `mp3`, ...
    public var format: String
    /// Its MIME type.
    public var mime: String
    /// Pixels across as shown: orientation, display matrix and pixel aspect applied (the size a
    /// thumbnail or a crop of the whole has). Nil for sound.
    public var width: Int?
    /// Pixels down as shown.
    public var height: Int?
    /// Pixels across as stored.
    public var codedWidth: Int?
    /// Pixels down as stored.
    public var codedHeight: Int?
    /// EXIF's 1 to 8 (a video's display matrix as the same; 1 is upright).
    public var orientation: Int?
    /// Degrees clockwise (0, 90, 180, 270) that turn the stored picture upright, after its mirror.
    public var rotation: Int?
    /// A video's pixel aspect ratio, `N:D`.
    public var sampleAspectRatio: String?
    /// Seconds, to the microsecond, as the container states it.
    public var duration: Double?
    /// Frames a second, averaged, to 0.001.
    public var fps: Double?
    /// The nominal frame rate, only where it differs from `fps`.
    public var nominalFPS: Double?
    /// A video's frames from its index (MP4, MOV), an animation's frames or a TIFF's pages;
    /// with `MediaProber.deep`, a video's packets counted.
    public var frames: Int?
    /// FFmpeg's codec name (`h264`, `hevc`, `av1`), or a picture's coding (`jpeg`, `deflate`, `vp8l`).
    public var codec: String?
    /// The codec's profile (`High`, `Main 10`).
    public var profile: String?
    /// Bits a sample.
    public var bitDepth: Int?
    /// The pixel format a video decodes to (`yuv420p10le`).
    public var pixelFormat: String?
    /// Whether a video is stored as fields.
    public var interlaced: Bool?
    /// The most frames from one keyframe to the next, where the index lists every frame.
    public var keyframeInterval: Int?
    /// Bits a second over the whole file.
    public var bitRate: Int?
    /// `pq` or `hlg`; nil for SDR.
    public var hdr: String?
    /// The Dolby Vision profile (5, 8, ...).
    public var dolbyVision: Int?
    /// The colour primaries as FFmpeg names them (`bt709`, `bt2020`).
    public var colorPrimaries: String?
    /// The transfer as FFmpeg names it (`bt709`, `arib-std-b67`, `smpte2084`).
    public var colorTransfer: String?
    /// The matrix as FFmpeg names it (`bt709`, `bt2020nc`).
    public var colorMatrix: String?
    /// `tv` or `pc`.
    public var colorRange: String?
    /// The sound streams; nil for pictures.
    public var audio: [AudioStream]?
    /// The subtitle streams; nil for pictures.
    public var subtitles: [SubtitleStream]?
    /// Whether the file carries an attached picture (MP4 `covr`, MP3 artwork).
    public var coverArt: Bool?
    /// The container's streams.
    public var streams: Int?
    /// Whether there is transparency.
    public var alpha: Bool?
    /// The ICC profile's own description (`Display P3`).
    public var icc: String?
    /// Whether a picture carries a smaller copy of itself (EXIF's IFD1, HEIF's `thmb`).
    public var hasEmbeddedThumbnail: Bool?
    /// That copy's size, as stored.
    public var embeddedThumbnail: Size?
    /// When it was taken, ISO 8601, with the offset where the file gives one.
    public var created: String?
    /// The camera's or phone's maker.
    public var make: String?
    /// The camera's or phone's model.
    public var model: String?
    /// The software that wrote the file.
    public var software: String?
    /// Where it was taken; nil when the file does not say, or when `MediaProber.includesGPS` is false.
    public var gps: Position?
    /// A Live Photo's pairing: the UUID its still and its video share (Apple's maker note,
    /// `com.apple.quicktime.content.identifier`).
    public var contentIdentifier: String?
    /// A Live Photo's video: when the frame that matches its still is presented, in seconds
    /// (the timed-metadata item `com.apple.quicktime.still-image-time`).
    public var stillImageTime: Double?
    /// An Android Motion Photo's video, after the picture in the same file.
    public var motionPhoto: ByteRange?
    /// With `MediaProber.deep` only: whether the picture, or the video's first frame, decoded.
    public var decodes: Bool?
    /// What was noticed on the way, one line each; not part of the command line's line.
    public var warnings: [String] = []

    enum CodingKeys: String, CodingKey {
        case kind, format, mime, width, height, codedWidth = "coded_width", codedHeight = "coded_height", orientation, rotation
        case sampleAspectRatio = "sar", duration, fps, nominalFPS = "nominal_fps", frames, codec, profile, bitDepth = "bit_depth"
        case pixelFormat = "pixel_format", interlaced, keyframeInterval = "keyframe_interval", bitRate = "bitrate", hdr
        case dolbyVision = "dolby_vision", colorPrimaries = "color_primaries", colorTransfer = "color_transfer"
        case colorMatrix = "color_matrix", colorRange = "color_range", audio, subtitles, coverArt = "cover_art", streams, alpha, icc
        case hasEmbeddedThumbnail = "has_embedded_thumbnail", embeddedThumbnail = "embedded_thumbnail", created, make, model
        case software, gps, contentIdentifier = "content_identifier", stillImageTime = "still_image_time"
        case motionPhoto = "motion_photo", decodes
    }
}
