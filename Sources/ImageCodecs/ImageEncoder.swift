import Imaging
import JPEGCodec
import PNGCodec
import WebPCodec

/// What a picture carries besides its pixels.
public struct PictureMetadata: Sendable {
    /// The colour description: an ICC profile, or PNG's sRGB, gAMA and cHRM.
    public var color: ColorDescription?
    /// A TIFF-headed EXIF block (the orientation of stored pixels, for `--keep-orientation`).
    public var exif: [UInt8]?
    /// An XMP packet (UTF-8 XML).
    public var xmp: [UInt8]?
    /// Coding-independent code points (ITU-T H.273: primaries, transfer, matrix, full range) of
    /// pixels that are not sRGB, such as HDR kept as HDR: PNG's cICP chunk.
    public var codePoints: [UInt8]?

    public init(color: ColorDescription? = nil, exif: [UInt8]? = nil, xmp: [UInt8]? = nil, codePoints: [UInt8]? = nil) {
        self.color = color
        self.exif = exif
        self.xmp = xmp
        self.codePoints = codePoints
    }
}

extension PictureMetadata {
    /// What a format without PNG's gAMA and cHRM (WebP, AVIF) says of a PNG's that has them and
    /// no profile: left out, the picture read as sRGB.
    func gammaLeftOut(by format: String) -> [String] {
        guard let color, color.iccProfile == nil, color.srgbIntent == nil, color.gamma != nil || color.chromaticities != nil else { return [] }
        return ["\(format) has no gAMA or cHRM: the PNG's gamma and primaries were left out (the \(format) reads as sRGB)"]
    }
}

/// How outputs are encoded, whatever their format: each encoder takes what applies to it.
public struct EncodingSettings: Sendable, Codable {
    /// zlib level 0 to 9 for PNG.
    public var pngCompressionLevel = PNGImageEncoder.defaultCompressionLevel
    /// 1 to 100 for JPEG, lossy WebP and AVIF (mapped onto libheif's scale: AVIFImageEncoder).
    public var jpegQuality = 90
    /// AVIF's effort, 0 (fastest) to 9, as libvips's: aom's speed is 9 minus it. 3 (aom's 6) was
    /// 3.2 times as fast as libvips's 4 for 0.3 dB less and as many bytes (docs/avif.md).
    public var avifEffort = 3
    /// WebP without loss.
    public var webpLossless = false
    /// JPEG chroma sampling; nil for the job's default (4:2:0, or a JPEG source's own).
    public var jpegSubsampling: ChromaSubsampling?
    public var jpegProgressive = false
    /// Threads an encoder may use (PNG's bands); 0 for every core. Batches give each worker its share.
    public var threads = 0

    public init() {}
}

/// Writes pixels in one format.
public protocol ImageEncoder: Sendable {
    /// Writes `pixels` and what of `metadata` the format can carry to `descriptor`. Returns what
    /// could not be kept (alpha flattened, a profile left out), one line each, for warnings.
    func write(_ pixels: PixelBuffer, metadata: PictureMetadata, to descriptor: Int32) throws -> [String]
}

/// The one place a format becomes an encoder: callers never switch on formats.
public enum ImageEncoders {
    public static func encoder(for format: ImageFormat, settings: EncodingSettings) -> any ImageEncoder {
        switch format {
        case .png: return PNGImageEncoder(compressionLevel: settings.pngCompressionLevel, threads: settings.threads)
        case .jpeg:
            return JPEGImageEncoder(JPEGEncoder(quality: settings.jpegQuality, subsampling: settings.jpegSubsampling ?? .s420,
                                                progressive: settings.jpegProgressive))
        case .webp: return WebPImageEncoder(WebPEncoder(quality: settings.jpegQuality, lossless: settings.webpLossless))
        case .avif: return AVIFImageEncoder(quality: settings.jpegQuality, effort: settings.avifEffort, threads: settings.threads)
        }
    }
}
