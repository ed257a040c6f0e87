import FFmpeg
import FileIO
import Imaging
import MetadataStripping
import Failures

/// A video's or sound's probe, from FFmpeg's reading of the container's header and index.
enum MediaProbe {
    static func probe(_ file: InputFile, options: ProbeOptions) throws -> (ProbeResult, warnings: [String]) {
        let limits = options.limits
        let facts = try MediaFacts.read(file, limits: limits)
        let main = facts.mainVideoStream.map { facts.streams[$0] }
        let audio = facts.streams.filter { $0.kind == .audio }
        let isPicture = facts.isPicture
        let kind: ProbeResult.Kind
        if isPicture {
            kind = .picture
        } else if main != nil {
            kind = .video
        } else if !audio.isEmpty {
            kind = .audio
        } else {
            throw ProbeError.noVideoOrAudio(streams: facts.streams.count)
        }
        let (format, mime) = MediaNames.name(of: facts, kind: kind, start: try Self.start(of: file))
        var result = ProbeResult(kind: kind, format: format, mime: mime)
        var warnings: [String] = []
        result.duration = isPicture ? nil : facts.duration
        result.bitRate = isPicture ? nil : facts.bitRate
        result.streams = facts.streams.count
        result.coverArt = facts.streams.contains { $0.isAttachedPicture }
        result.audio = audio.map { ProbeResult.AudioStream(codec: $0.codec, channels: $0.channels, sampleRate: $0.sampleRate, language: $0.language) }
        result.subtitles = facts.streams.filter { $0.kind == .subtitle }.map { ProbeResult.SubtitleStream(codec: $0.codec, language: $0.language) }
        result.capture = QuickTimeMetadata.capture(facts.tags)
        // Only a Live Photo's video (its identifier said) has its movie header read again for
        // its still's time; only a movie of data tracks and no other position, for a position
        // written as timed metadata (a few camera apps'), which a site must know is there.
        if kind == .video, result.capture.contentIdentifier != nil {
            result.stillImageTime = TimedMetadata.stillImageTime(in: file)
        }
        if kind == .video, result.capture.position == nil, facts.streams.contains(where: { $0.kind == .data }) {
            result.capture.position = TimedMetadata.firstPosition(in: file).flatMap(ISO6709.position)
        }
        if let main {
            describe(main, into: &result)
            if !main.orientationIsExact {
                warnings.append("the display matrix turns by other than a multiple of 90 degrees: the nearest, \(main.orientation), is reported")
            }
            if isPicture { result.fps = nil; result.nominalFPS = nil; result.keyframeInterval = nil; result.bitRate = nil }
        }
        // A file cut short keeps an index that is at its front: its frames past the end are said.
        if let (missing, indexed) = facts.framesPastTheEnd, missing > 0 {
            warnings.append("\(Prober.cutShortWarning): \(missing) of the \(indexed) frames its index lists lie past its end")
        }
        if options.deep, let index = facts.mainVideoStream {
            try decodeFirstFrame(of: file, into: &result, limits: limits, threads: options.threads)
            result.frames = try MediaFacts.countPackets(file, stream: index, limits: limits)
        }
        return (result, warnings)
    }

    /// The main video stream's fields: the size as `thumbnail` shows it (pixel aspect, then display matrix).
    private static func describe(_ stream: StreamFacts, into result: inout ProbeResult) {
        // A size FFmpeg refused stays 0x0: no size, not 1x1.
        if stream.codedWidth > 0 && stream.codedHeight > 0 {
            let geometry = DisplayGeometry(codedWidth: stream.codedWidth, codedHeight: stream.codedHeight, pixelAspect: stream.pixelAspect,
                                           orientation: stream.orientation, maxWidth: nil, maxHeight: nil)
            (result.width, result.height) = (geometry.outputWidth, geometry.outputHeight)
            (result.codedWidth, result.codedHeight) = (stream.codedWidth, stream.codedHeight)
        }
        result.orientation = stream.orientation.rawValue
        result.rotation = stream.orientation.clockwiseRotation
        result.sampleAspectRatio = "\(stream.pixelAspect.numerator):\(stream.pixelAspect.denominator)"
        result.fps = stream.averageFrameRate
        if let nominal = stream.nominalFrameRate, abs(nominal - (stream.averageFrameRate ?? 0)) > 0.0005 { result.nominalFPS = nominal }
        result.frames = stream.frames
        result.codec = stream.codec
        result.profile = stream.profile
        result.bitDepth = stream.bitDepth
        result.pixelFormat = stream.pixelFormat
        result.interlaced = stream.interlaced
        result.keyframeInterval = stream.keyframeInterval
        result.colourPrimaries = stream.colourPrimaries
        result.colourTransfer = stream.colourTransfer
        result.colourMatrix = stream.colourMatrix
        result.colourRange = stream.colourRange
        result.hdr = hdrName(transfer: stream.colourTransfer)
        result.dolbyVision = stream.dolbyVisionProfile
        result.alpha = stream.pixelFormat.map { $0.hasPrefix("yuva") || $0.hasPrefix("rgba") || $0.hasPrefix("argb") || $0.hasPrefix("bgra") || $0.hasPrefix("gbrap") || $0.hasPrefix("ya") }
    }

    static func hdrName(transfer: String?) -> String? {
        switch transfer {
        case "smpte2084": return "pq"
        case "arib-std-b67": return "hlg"
        default: return nil
        }
    }

    /// The first frame decoded, as `thumbnail` decodes it: its own size, pixel aspect, display
    /// matrix and transfer replace what the header said.
    private static func decodeFirstFrame(of file: InputFile, into result: inout ProbeResult, limits: DecodeLimits, threads: Int) throws {
        let video = try VideoSource(file: file, threads: threads, limits: limits)
        let located = try video.frame(atSeconds: 0, mode: .exact)
        let geometry = video.display(of: located.frame).geometry
        let orientation = geometry.orientation
        let pixelAspect = video.pixelAspectRatio(of: located.frame)
        (result.width, result.height) = (geometry.outputWidth, geometry.outputHeight)
        (result.codedWidth, result.codedHeight) = (located.frame.width, located.frame.height)
        result.orientation = orientation.rawValue
        result.rotation = orientation.clockwiseRotation
        result.sampleAspectRatio = "\(pixelAspect.numerator):\(pixelAspect.denominator)"
        if result.hdr == nil, video.isHDR(located.frame), let points = video.codePoints(of: located.frame) {
            result.hdr = points[1] == 16 ? "pq" : "hlg"
        }
        result.decodes = true
    }

    /// The file's first bytes, where Matroska states whether it is WebM.
    private static func start(of file: InputFile) throws -> [UInt8] {
        Array(try file.head().prefix(64))
    }
}

extension Prober {
    /// How the warning of a file cut short begins (its frames past the end follow): for a caller
    /// that acts on it (ingest makes a web video of what decodes rather than serve it as it is).
    public static let cutShortWarning = "the file is cut short"
}

/// Why a file could not be probed, beyond what its readers said.
public enum ProbeError: Error, Equatable, CustomStringConvertible {
    case noVideoOrAudio(streams: Int)
    case empty

    public var description: String {
        switch self {
        case .empty: return "an empty file"
        case .noVideoOrAudio(let streams): return "no video or audio stream (\(streams) other streams)"
        }
    }
}

extension ProbeError: ClassifiedError {
    public var failureKind: FailureKind {
        if case .empty = self { return .unsupportedFormat }
        return .noVideo
    }
}
