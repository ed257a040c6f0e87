/// The picture formats mediatool writes: those of `PictureFormat.all` with an output.
public enum ImageFormat: String, CaseIterable, Sendable, Codable {
    case png
    case jpeg
    case webp
    case avif

    /// Its row of the format list.
    public var descriptor: PictureFormat { PictureFormat.all.first { $0.output == self }! }

    /// The extension outputs get by default.
    public var fileExtension: String { descriptor.extensions[0] }

    /// Whether HDR pictures are written as HDR (`--hdr keep`): 16-bit PNG with a cICP chunk,
    /// 10-bit AVIF with its nclx.
    public var keepsHDR: Bool { self == .png || self == .avif }

    /// Whether HDR kept in this format is encoded through FFmpeg (AVIF's 10 bits): a worker that
    /// writes it must load FFmpeg before it is confined, whatever its input.
    public var keepsHDRThroughFFmpeg: Bool { self == .avif }

    /// The media type an HTTP response and a `<source type>` give it.
    public var mimeType: String { "image/\(rawValue)" }

    /// Its place in a `<picture>`'s `<source>` lines: the smallest at equal quality first (AVIF,
    /// then WebP), then the fallback every browser shows (JPEG, then PNG).
    public var pictureSetRank: Int {
        switch self {
        case .avif: return 0
        case .webp: return 1
        case .jpeg: return 2
        case .png: return 3
        }
    }

    /// The largest width or height it holds.
    public var largestSide: Int { descriptor.largestSide }

    /// The format a file name's extension names, any case; nil for one that names none we write.
    public init?(fileExtension: String) {
        let wanted = fileExtension.lowercased()
        guard let format = PictureFormat.all.first(where: { $0.output != nil && $0.extensions.contains(wanted) })?.output else { return nil }
        self = format
    }

    /// The formats and their extensions, for messages: `png, jpeg (.jpg, .jpeg, .jpe, .jfif), webp`.
    public static let supportedList = allCases.map { format in
        let extensions = format.descriptor.extensions
        return extensions == [format.rawValue] ? format.rawValue : "\(format.rawValue) (\(extensions.map { "." + $0 }.joined(separator: ", ")))"
    }.joined(separator: ", ")
}
