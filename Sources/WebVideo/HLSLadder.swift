import FFmpeg
import FileIO
import Imaging

/// One rendition of an HLS ladder: a fragmented MP4 whose segments its playlist lists by byte
/// range, so that the file is also a video any browser plays on its own.
public struct HLSRendition: Sendable {
    /// Its name in the ladder, its shorter side's pixels: "720p".
    public let name: String
    public let width: Int
    public let height: Int
    /// The file's bytes: its initialisation, then each segment.
    public let bytes: Int
    public let initialisationBytes: Int
    public let segments: [WebMP4Writer.Segment]
    /// Each segment's length in seconds, in order.
    public let segmentSeconds: [Double]
    /// RFC 6381's names of its codecs: "avc1.64001f,mp4a.40.2".
    public let codecs: String
    /// Bits a second of the segment that needs most, and over the whole video: the master
    /// playlist's BANDWIDTH and AVERAGE-BANDWIDTH.
    public let peakBitsPerSecond: Int
    public let averageBitsPerSecond: Int
}

/// An HLS ladder: the renditions of one decode, largest first.
public struct HLSLadder: Sendable {
    public let renditions: [HLSRendition]
    public let frames: Int
    public let seconds: Double
    /// The source's sound codec, where the video has sound (AAC in every rendition).
    public let soundFrom: String?
    public let isCutShort: Bool
    public let warnings: [String]
}

extension Transcoder {
    /// The rungs of a ladder, by the picture's shorter side: each at or below the source's.
    public static let ladderRungs = [1080, 720, 480, 360]
    /// A segment starts at the first frame this long after the last segment's start: 4 s, or a
    /// frame more (Apple's authoring guide asks 6 at most; shorter ones start and switch sooner).
    public static let segmentSeconds = 4.0

    /// Decodes `file` once and writes each rendition of its ladder to the descriptor `open` gives
    /// for the rendition's name: the largest at the video's size (fitted to the options' box, and
    /// to 1080 on its shorter side), then each rung of `ladderRungs` below it. Every rendition
    /// has its keyframes, so its segments, at the same frames.
    /// `video` and `alongside` as for `transcode`.
    public func makeLadder(_ file: InputFile, video: VideoSource? = nil, alongside: [FramesAlongside] = [],
                           open: (_ name: String) throws -> (descriptor: Int32, target: String),
                           progress: (JobProgress) -> Void = { _ in }) throws -> HLSLadder {
        let made = try encode(file, video: video, alongside: alongside, progress: progress, segmentSeconds: Self.segmentSeconds,
                              sizes: Self.ladder(natural:fitted:)) { _, geometry in
            try open(Self.rungName(geometry))
        }
        let renditions = made.renditions.map { rendition in
            let writer = rendition.writer
            let segments = writer.segments
            let starts = segments.map(\.seconds)
            let lengths = zip(starts, starts.dropFirst() + [made.seconds]).map { max(0, $1 - $0) }
            let peak = zip(segments, lengths).map { segment, seconds in Self.bitsPerSecond(segment.bytes, seconds) }.max() ?? 0
            let media = segments.reduce(0) { $0 + $1.bytes }
            return HLSRendition(name: Self.rungName(rendition.geometry), width: rendition.geometry.outputWidth,
                                height: rendition.geometry.outputHeight, bytes: rendition.bytes,
                                initialisationBytes: writer.initialisationBytes, segments: segments, segmentSeconds: lengths,
                                codecs: writer.codecs, peakBitsPerSecond: peak,
                                averageBitsPerSecond: Self.bitsPerSecond(media, made.seconds))
        }
        return HLSLadder(renditions: renditions, frames: made.renditions[0].writer.frameCount, seconds: made.seconds,
                         soundFrom: made.soundFrom, isCutShort: made.isCutShort, warnings: made.warnings)
    }

    /// The sizes of the ladder of a video shown at `natural` (upright, square pixels) whose
    /// largest picture, fitted to the options' box, is `fitted`: that, at most 1080 on its
    /// shorter side, then each rung of `ladderRungs` below it, all made from `natural` (a rung
    /// made from the fitted picture took its rounding: 360x638 of a 608x1080 one).
    static func ladder(natural: DisplayGeometry, fitted: DisplayGeometry) -> [DisplayGeometry] {
        let shorter = { (geometry: DisplayGeometry) in min(geometry.outputWidth, geometry.outputHeight) }
        let largest = shorter(fitted) > ladderRungs[0] ? natural.withEvenShorterSide(ladderRungs[0]) : fitted
        return [largest] + ladderRungs.filter { $0 < shorter(largest) }.map { natural.withEvenShorterSide($0) }
    }

    static func rungName(_ geometry: DisplayGeometry) -> String {
        "\(min(geometry.outputWidth, geometry.outputHeight))p"
    }

    private static func bitsPerSecond(_ bytes: Int, _ seconds: Double) -> Int {
        Int((Double(bytes * 8) / max(seconds, 0.001)).rounded(.up))
    }
}

/// The playlists of an HLS ladder (RFC 8216, version 7: fragmented MP4 segments by byte range).
public enum HLSPlaylist {
    /// The media playlist of `rendition`, whose file is `videoName` beside it.
    public static func media(of rendition: HLSRendition, videoName: String) -> String {
        let uri = PathBytes.urlPath(videoName)
        // Each segment's length rounded is at most the target (RFC 8216, 4.3.3.1).
        let target = Int((rendition.segmentSeconds.max() ?? 1).rounded(.up))
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(max(1, target))", "#EXT-X-MEDIA-SEQUENCE:0",
                     "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-INDEPENDENT-SEGMENTS",
                     "#EXT-X-MAP:URI=\"\(uri)\",BYTERANGE=\"\(rendition.initialisationBytes)@0\""]
        for (segment, seconds) in zip(rendition.segments, rendition.segmentSeconds) {
            lines.append("#EXTINF:\(decimal(seconds)),")
            lines.append("#EXT-X-BYTERANGE:\(segment.bytes)@\(segment.offset)")
            lines.append(uri)
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The master playlist of `ladder`, each rendition's playlist named by `playlistNames`.
    public static func master(of ladder: HLSLadder, playlistNames: [String]) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"]
        for (rendition, name) in zip(ladder.renditions, playlistNames) {
            lines.append("#EXT-X-STREAM-INF:BANDWIDTH=\(rendition.peakBitsPerSecond),AVERAGE-BANDWIDTH=\(rendition.averageBitsPerSecond),"
                         + "RESOLUTION=\(rendition.width)x\(rendition.height),CODECS=\"\(rendition.codecs)\"")
            lines.append(PathBytes.urlPath(name))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Seconds with three decimals (milliseconds), as "4.000".
    static func decimal(_ seconds: Double) -> String {
        let milliseconds = Int((max(0, min(seconds, 1e12)) * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
