import Imaging
import JSON

/// What `probe` says of one file. Every field is in every line, in this order, null where it does
/// not apply or the file does not say (docs/probe.md's schema): the names are an interface.
public struct ProbeResult: Sendable, Equatable {
    public enum Kind: String, Sendable { case picture, video, audio }

    public var kind: Kind
    public var format: String
    public var mime: String
    /// As shown: orientation, display matrix and pixel aspect applied; what `thumbnail` and `crop` write at full size.
    public var width: Int?
    public var height: Int?
    public var codedWidth: Int?
    public var codedHeight: Int?
    /// EXIF's 1 to 8 (a video's display matrix as the same).
    public var orientation: Int?
    /// Degrees clockwise that turn the stored picture upright (after its mirror, for 2, 4, 5 and 7).
    public var rotation: Int?
    /// A video's pixel aspect ratio, `N:D`.
    public var sampleAspectRatio: String?
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
    public var bitRate: Int?
    public var hdr: String?
    public var dolbyVision: Int?
    public var colourPrimaries: String?
    public var colourTransfer: String?
    public var colourMatrix: String?
    public var colourRange: String?
    public var audio: [AudioStream]?
    public var subtitles: [SubtitleStream]?
    public var coverArt: Bool?
    public var streams: Int?
    public var alpha: Bool?
    public var icc: String?
    public var embeddedThumbnail: Size?
    public var capture = CaptureMetadata()
    /// With `--deep` only: the picture, or the video's first frame, decoded.
    public var decodes: Bool?

    public struct AudioStream: Sendable, Equatable {
        public var codec: String
        public var channels: Int
        public var sampleRate: Int
        public var language: String?
    }

    public struct SubtitleStream: Sendable, Equatable {
        public var codec: String
        public var language: String?
    }

    public struct Size: Sendable, Equatable {
        public var width: Int
        public var height: Int
    }

    public init(kind: Kind, format: String, mime: String) {
        self.kind = kind
        self.format = format
        self.mime = mime
    }

    /// The members of the JSON line, in the schema's order; `gps` left out without `includesGPS`.
    public func fields(includesGPS: Bool) -> [(name: String, value: JSONValue)] {
        var fields: [(name: String, value: JSONValue)] = [
            ("kind", .text(kind.rawValue)), ("format", .text(format)), ("mime", .text(mime)),
            ("width", Self.int(width)), ("height", Self.int(height)),
            ("coded_width", Self.int(codedWidth)), ("coded_height", Self.int(codedHeight)),
            ("orientation", Self.int(orientation)), ("rotation", Self.int(rotation)), ("sar", Self.string(sampleAspectRatio)),
            ("duration", duration.map { .double(Self.rounded($0, places: 6)) } ?? .null),
            ("fps", fps.map { .double(Self.rounded($0, places: 3)) } ?? .null),
            ("nominal_fps", nominalFPS.map { .double(Self.rounded($0, places: 3)) } ?? .null),
            ("frames", Self.int(frames)), ("codec", Self.string(codec)), ("profile", Self.string(profile)),
            ("bit_depth", Self.int(bitDepth)), ("pixel_format", Self.string(pixelFormat)), ("interlaced", Self.bool(interlaced)),
            ("keyframe_interval", Self.int(keyframeInterval)), ("bitrate", Self.int(bitRate)),
            ("hdr", Self.string(hdr)), ("dolby_vision", Self.int(dolbyVision)),
            ("color_primaries", Self.string(colourPrimaries)), ("color_transfer", Self.string(colourTransfer)),
            ("color_matrix", Self.string(colourMatrix)), ("color_range", Self.string(colourRange)),
            ("audio", audio.map { streams in .array(streams.map { stream in
                .object([JSONMember("codec", .text(stream.codec)), JSONMember("channels", .int(stream.channels)),
                         JSONMember("sample_rate", .int(stream.sampleRate)), JSONMember("language", Self.string(stream.language))])
            }) } ?? .null),
            ("subtitles", subtitles.map { streams in .array(streams.map { stream in
                .object([JSONMember("codec", .text(stream.codec)), JSONMember("language", Self.string(stream.language))])
            }) } ?? .null),
            ("cover_art", Self.bool(coverArt)), ("streams", Self.int(streams)),
            ("alpha", Self.bool(alpha)), ("icc", Self.string(icc)),
            ("has_embedded_thumbnail", kind == .picture ? .bool(embeddedThumbnail != nil) : .null),
            ("embedded_thumbnail", embeddedThumbnail.map { .object([JSONMember("width", .int($0.width)), JSONMember("height", .int($0.height))]) } ?? .null),
            ("created", Self.string(capture.created)), ("make", Self.string(capture.make)), ("model", Self.string(capture.model)),
            ("software", Self.string(capture.software)),
        ]
        if includesGPS {
            fields.append(("gps", capture.position.map { position in
                .object([JSONMember("latitude", .double(Self.rounded(position.latitude, places: 7))),
                         JSONMember("longitude", .double(Self.rounded(position.longitude, places: 7))),
                         JSONMember("altitude", position.altitude.map { .double(Self.rounded($0, places: 3)) } ?? .null)])
            } ?? .null))
        }
        fields.append(("decodes", Self.bool(decodes)))
        return fields
    }

    private static func int(_ value: Int?) -> JSONValue { value.map(JSONValue.int) ?? .null }
    /// Text the file holds, written as it is (see `JSONValue.text`).
    private static func string(_ value: String?) -> JSONValue { value.map(JSONValue.text) ?? .null }
    private static func bool(_ value: Bool?) -> JSONValue { value.map(JSONValue.bool) ?? .null }

    /// To `places` decimals: a duration to the microsecond, a position to about a centimetre.
    public static func rounded(_ value: Double, places: Int) -> Double {
        let scale = [1.0, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7][places]
        return (value * scale).rounded() / scale
    }
}
