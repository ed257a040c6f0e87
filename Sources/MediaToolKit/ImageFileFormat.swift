internal import ImageCodecs

/// The formats pictures are encoded to.
public enum ImageFileFormat: String, Sendable, CaseIterable, Codable {
    case png
    case jpeg
    case webp
    /// AV1 in HEIF, 4:2:0, its quality on JPEG's scale (see `ImageEncoding.quality`).
    case avif

    /// The extension a file of this format gets: `png`, `jpg`, `webp`.
    public var fileExtension: String { format.fileExtension }

    /// The media type an HTTP response gives it.
    public var mimeType: String { "image/\(rawValue)" }

    var format: ImageFormat { ImageFormat(rawValue: rawValue)! }
}

/// How a picture is encoded: each format takes what applies to it.
public struct ImageEncoding: Sendable, Equatable {
    /// The file format.
    public var format: ImageFileFormat
    /// 1 to 100, for JPEG, lossy WebP and AVIF (AVIF's mapped to look as JPEG's of the same
    /// quality does).
    public var quality: Int
    /// WebP without loss.
    public var lossless: Bool
    /// zlib's 0 to 9, for PNG.
    public var pngCompressionLevel: Int
    /// AVIF's effort, 0 (fastest) to 9 (smallest files), as libvips's.
    public var effort = 3

    /// The command line's defaults: quality 90, lossy WebP, PNG at zlib's level 1 (levels above it
    /// took 2 to 3 times as long for files a few percent smaller).
    public init(_ format: ImageFileFormat, quality: Int = 90, lossless: Bool = false, pngCompressionLevel: Int = 1) {
        self.format = format
        self.quality = quality
        self.lossless = lossless
        self.pngCompressionLevel = pngCompressionLevel
    }

    /// PNG, zlib level 1.
    public static let png = ImageEncoding(.png)
    /// JPEG, quality 90, 4:2:0.
    public static let jpeg = ImageEncoding(.jpeg)
    /// Lossy WebP, quality 90.
    public static let webp = ImageEncoding(.webp)
    /// AVIF, quality 90 on JPEG's scale, effort 3.
    public static let avif = ImageEncoding(.avif)

    /// The encoder's settings, its threads from the configuration.
    func settings(threads: Int) throws(MediaError) -> EncodingSettings {
        guard (1...100).contains(quality) else {
            throw .invalidRequest(file: "<encoding>", reason: "quality \(quality) is not from 1 to 100")
        }
        guard (0...9).contains(pngCompressionLevel) else {
            throw .invalidRequest(file: "<encoding>", reason: "PNG compression level \(pngCompressionLevel) is not from 0 to 9")
        }
        guard (0...9).contains(effort) else {
            throw .invalidRequest(file: "<encoding>", reason: "AVIF effort \(effort) is not from 0 to 9")
        }
        var settings = EncodingSettings()
        settings.jpegQuality = quality
        settings.avifEffort = effort
        settings.webpLossless = lossless
        settings.pngCompressionLevel = pngCompressionLevel
        settings.threads = threads
        return settings
    }
}
