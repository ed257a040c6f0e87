/// What a picture, video or sound file is, from its header and index: the command line's `probe`
/// line as a value. Decoding a line `mediatool probe` printed gives the same value as
/// `MediaProber.probe(_:)`; the README's schema documents each field (units, when nil).
/// Encoding leaves nil fields out where the command line writes `null`.
public struct ProbeReport: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable { case picture, video, audio }

    public struct Size: Sendable, Equatable, Codable {
        public var width: Int
        public var height: Int
    }

    public struct AudioStream: Sendable, Equatable, Codable {
        public var codec: String
        public var channels: Int
        public var sampleRate: Int
        public var language: String?

        enum CodingKeys: String, CodingKey {
            case codec, channels, sampleRate = "sample_rate", language
        }
    }

    public struct SubtitleStream: Sendable, Equatable, Codable {
        public var codec: String
        public var language: String?
    }

    /// Where it was taken: degrees north and east (WGS 84), metres above sea level.
    public struct Position: Sendable, Equatable, Codable {
        public var latitude: Double
        public var longitude: Double
        public var altitude: Double?
    }

    public var kind: Kind
    /// mediatool's short name of the container or picture format (`mov`, `mp4`, `heic`, `jpeg`).
    public var format: String
    public var mime: String
    /// As shown: orientation, display matrix and pixel aspect applied.
    public var width: Int?
    public var height: Int?
    public var codedWidth: Int?
    public var codedHeight: Int?
    /// EXIF's 1 to 8 (a video's display matrix as the same).
    public var orientation: Int?
    /// Degrees clockwise that turn the stored picture upright.
    public var rotation: Int?
    /// A video's pixel aspect ratio, `N:D`.
    public var sampleAspectRatio: String?
    /// Seconds.
    public var duration: Double?
    public var fps: Double?
    public var nominalFPS: Double?
    public var frames: Int?
    public var codec: String?
    public var profile: String?
    public var bitDepth: Int?
    public var pixelFormat: String?
    public var interlaced: Bool?
    public var keyframeInterval: Int?
    /// Bits per second.
    public var bitRate: Int?
    /// `pq` or `hlg`.
    public var hdr: String?
    public var dolbyVision: Int?
    public var colorPrimaries: String?
    public var colorTransfer: String?
    public var colorMatrix: String?
    public var colorRange: String?
    public var audio: [AudioStream]?
    public var subtitles: [SubtitleStream]?
    public var coverArt: Bool?
    public var streams: Int?
    public var alpha: Bool?
    /// The ICC profile's description.
    public var icc: String?
    public var hasEmbeddedThumbnail: Bool?
    /// As stored.
    public var embeddedThumbnail: Size?
    /// ISO 8601, with the offset where the file gives one.
    public var created: String?
    public var make: String?
    public var model: String?
    public var software: String?
    /// Nil when the file has none, or when `MediaProber.includesGPS` is false.
    public var gps: Position?
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
        case software, gps, decodes
    }
}
