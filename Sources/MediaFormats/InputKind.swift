import FFmpeg
import FileIO
import ImageCodecs

/// What an input is, from its first bytes: one lookup over every format mediatool reads, the
/// picture codecs' (`PictureFormat.all`) and FFmpeg's demuxers beside them, as libvips's
/// `vips_foreign_find_load` is its one lookup. Every job asks here, never a format list of its own.
public enum InputKind: Sendable, Equatable {
    /// A picture one of mediatool's picture codecs reads.
    case picture(PictureFormat.Name)
    /// A picture FFmpeg reads (a GIF, an APNG, an image pipe's format): shown by its first frame.
    case ffmpegPicture(demuxer: String)
    /// Video or audio FFmpeg reads.
    case media(demuxer: String)
    /// Nothing mediatool reads.
    case unknown

    /// The kind of an input that begins with `start`. The picture codecs' signatures are looked
    /// at first: a picture is told without FFmpeg, whose libraries load on first use. FFmpeg's
    /// probes settle more formats the more bytes they see (up to `InputFile.recognitionLength`).
    public static func classify(_ start: UnsafeRawBufferPointer) -> InputKind {
        if let format = pictureCodec(start) { return .picture(format) }
        guard let demuxer = VideoSource.demuxer(forStart: start) else { return .unknown }
        return MediaFacts.isPictureDemuxer(demuxer) ? .ffmpegPicture(demuxer: demuxer) : .media(demuxer: demuxer)
    }

    /// The picture codec that reads an input beginning with `start`, from its signature alone;
    /// nil for anything else (which only FFmpeg may read).
    public static func pictureCodec(_ start: UnsafeRawBufferPointer) -> PictureFormat.Name? {
        PictureFormat.identify(Array(start.prefix(12)))?.name
    }

    /// The same, from the file's first bytes.
    public static func pictureCodec(of file: InputFile) throws -> PictureFormat.Name? {
        try file.head().withUnsafeBytes { pictureCodec($0) }
    }

    /// The kind of `file`, from its first bytes (`InputFile.head`).
    public static func of(_ file: InputFile) throws -> InputKind {
        try file.head().withUnsafeBytes { classify($0) }
    }

    /// Throws, as opening would, when `start` begins nothing mediatool reads: so that a stream that
    /// is not media is refused before all of it is copied.
    @Sendable public static func recognise(_ start: UnsafeRawBufferPointer) throws {
        if pictureCodec(start) != nil { return }
        try VideoSource.recognise(start)
    }

    /// A picture, whoever reads it.
    public var isPicture: Bool {
        switch self {
        case .picture, .ffmpegPicture: return true
        case .media, .unknown: return false
        }
    }
}
