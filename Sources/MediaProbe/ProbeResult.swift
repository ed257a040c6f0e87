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
    /// A Live Photo's video: when the frame that matches its still is presented, in seconds.
    public var stillImageTime: Double?
    /// An Android Motion Photo's video: where in the file it lies, as the picture's XMP says.
    public var motionPhoto: ByteRange?
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

    public struct ByteRange: Sendable, Equatable {
        public var offset: Int
        public var length: Int
    }

    public init(kind: Kind, format: String, mime: String) {
        self.kind = kind
        self.format = format
        self.mime = mime
    }

    /// The members of the JSON line, in the schema's order; `gps` left out without `includesGPS`.
    /// Written by `JSONValueEncoder` from `ProbeLine`, the one place the schema is spelled.
    public func fields(includesGPS: Bool) -> [(name: String, value: JSONValue)] {
        // A line of numbers, text and flags always encodes.
        guard case .object(let members)? = try? JSONValueEncoder.encode(ProbeLine(result: self, includesGPS: includesGPS)) else {
            preconditionFailure("a probe line encodes as an object")
        }
        return members.map { (name: $0.name, value: $0.value) }
    }

    /// To `places` decimals: a duration to the microsecond, a position to about a centimetre.
    public static func rounded(_ value: Double, places: Int) -> Double {
        let scale = [1.0, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7][places]
        return (value * scale).rounded() / scale
    }
}

/// probe's line: every field, in this order, `null` where it does not apply or the file does not
/// say (docs/probe.md; docs/probe-schema.json is made from it). Text the file holds is written as
/// it is (`String` encodes as `JSONValue.text`); numbers rounded as the schema says.
public struct ProbeLine: Encodable {
    let result: ProbeResult
    let includesGPS: Bool

    public init(result: ProbeResult, includesGPS: Bool) {
        self.result = result
        self.includesGPS = includesGPS
    }

    private enum Key: String, CodingKey {
        case kind, format, mime, width, height, codedWidth = "coded_width", codedHeight = "coded_height", orientation, rotation
        case sampleAspectRatio = "sar", duration, fps, nominalFPS = "nominal_fps", frames, codec, profile, bitDepth = "bit_depth"
        case pixelFormat = "pixel_format", interlaced, keyframeInterval = "keyframe_interval", bitRate = "bitrate", hdr
        case dolbyVision = "dolby_vision", colourPrimaries = "color_primaries", colourTransfer = "color_transfer"
        case colourMatrix = "color_matrix", colourRange = "color_range", audio, subtitles, coverArt = "cover_art", streams, alpha, icc
        case hasEmbeddedThumbnail = "has_embedded_thumbnail", embeddedThumbnail = "embedded_thumbnail", created, make, model
        case software, gps, contentIdentifier = "content_identifier", stillImageTime = "still_image_time"
        case motionPhoto = "motion_photo", decodes
    }

    private struct Audio: Encodable {
        let codec: String
        let channels: Int
        let sampleRate: Int
        let language: String?

        private enum CodingKeys: String, CodingKey { case codec, channels, sampleRate = "sample_rate", language }

        func encode(to encoder: any Encoder) throws {
            var line = encoder.container(keyedBy: CodingKeys.self)
            try line.encode(codec, forKey: .codec)
            try line.encode(channels, forKey: .channels)
            try line.encode(sampleRate, forKey: .sampleRate)
            try line.encode(language, forKey: .language)
        }
    }

    private struct Subtitles: Encodable {
        let codec: String
        let language: String?

        private enum CodingKeys: String, CodingKey { case codec, language }

        func encode(to encoder: any Encoder) throws {
            var line = encoder.container(keyedBy: CodingKeys.self)
            try line.encode(codec, forKey: .codec)
            try line.encode(language, forKey: .language)
        }
    }

    private struct Size: Encodable {
        let width: Int
        let height: Int
    }

    private struct ByteRange: Encodable {
        let offset: Int
        let length: Int
    }

    private struct Position: Encodable {
        let latitude: Double
        let longitude: Double
        let altitude: Double?

        private enum CodingKeys: String, CodingKey { case latitude, longitude, altitude }

        func encode(to encoder: any Encoder) throws {
            var line = encoder.container(keyedBy: CodingKeys.self)
            try line.encode(latitude, forKey: .latitude)
            try line.encode(longitude, forKey: .longitude)
            try line.encode(altitude, forKey: .altitude)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        let result = result
        func rounded(_ value: Double?, _ places: Int) -> Double? { value.map { ProbeResult.rounded($0, places: places) } }
        var line = encoder.container(keyedBy: Key.self)
        try line.encode(result.kind.rawValue, forKey: .kind)
        try line.encode(result.format, forKey: .format)
        try line.encode(result.mime, forKey: .mime)
        try line.encode(result.width, forKey: .width)
        try line.encode(result.height, forKey: .height)
        try line.encode(result.codedWidth, forKey: .codedWidth)
        try line.encode(result.codedHeight, forKey: .codedHeight)
        try line.encode(result.orientation, forKey: .orientation)
        try line.encode(result.rotation, forKey: .rotation)
        try line.encode(result.sampleAspectRatio, forKey: .sampleAspectRatio)
        try line.encode(rounded(result.duration, 6), forKey: .duration)
        try line.encode(rounded(result.fps, 3), forKey: .fps)
        try line.encode(rounded(result.nominalFPS, 3), forKey: .nominalFPS)
        try line.encode(result.frames, forKey: .frames)
        try line.encode(result.codec, forKey: .codec)
        try line.encode(result.profile, forKey: .profile)
        try line.encode(result.bitDepth, forKey: .bitDepth)
        try line.encode(result.pixelFormat, forKey: .pixelFormat)
        try line.encode(result.interlaced, forKey: .interlaced)
        try line.encode(result.keyframeInterval, forKey: .keyframeInterval)
        try line.encode(result.bitRate, forKey: .bitRate)
        try line.encode(result.hdr, forKey: .hdr)
        try line.encode(result.dolbyVision, forKey: .dolbyVision)
        try line.encode(result.colourPrimaries, forKey: .colourPrimaries)
        try line.encode(result.colourTransfer, forKey: .colourTransfer)
        try line.encode(result.colourMatrix, forKey: .colourMatrix)
        try line.encode(result.colourRange, forKey: .colourRange)
        try line.encode(result.audio?.map { Audio(codec: $0.codec, channels: $0.channels, sampleRate: $0.sampleRate, language: $0.language) },
                        forKey: .audio)
        try line.encode(result.subtitles?.map { Subtitles(codec: $0.codec, language: $0.language) }, forKey: .subtitles)
        try line.encode(result.coverArt, forKey: .coverArt)
        try line.encode(result.streams, forKey: .streams)
        try line.encode(result.alpha, forKey: .alpha)
        try line.encode(result.icc, forKey: .icc)
        // Whether a picture carries a smaller copy; nothing to say of a video or a sound.
        try line.encode(result.kind == .picture ? result.embeddedThumbnail != nil : nil, forKey: .hasEmbeddedThumbnail)
        try line.encode(result.embeddedThumbnail.map { Size(width: $0.width, height: $0.height) }, forKey: .embeddedThumbnail)
        try line.encode(result.capture.created, forKey: .created)
        try line.encode(result.capture.make, forKey: .make)
        try line.encode(result.capture.model, forKey: .model)
        try line.encode(result.capture.software, forKey: .software)
        if includesGPS {
            try line.encode(result.capture.position.map {
                Position(latitude: ProbeResult.rounded($0.latitude, places: 7), longitude: ProbeResult.rounded($0.longitude, places: 7),
                         altitude: rounded($0.altitude, 3))
            }, forKey: .gps)
        }
        try line.encode(result.capture.contentIdentifier, forKey: .contentIdentifier)
        try line.encode(result.stillImageTime.map { ProbeResult.rounded($0, places: 6) }, forKey: .stillImageTime)
        try line.encode(result.motionPhoto.map { ByteRange(offset: $0.offset, length: $0.length) }, forKey: .motionPhoto)
        try line.encode(result.decodes, forKey: .decodes)
    }
}
