import FFmpeg
import HEIFCodec
import Imaging
import FileIO
import WorkerPool

/// AVIF output through libheif's AV1 encoder (aom), 4:4:4, 8-bit RGB or RGBA (gray written as
/// RGB, 16-bit samples rounded); HDR kept as HDR (16-bit pixels with code points) as 10-bit 4:2:0
/// through FFmpeg's aom (`HDRAVIFWriter`). Tagged sRGB, or the picture's ICC profile beside that. EXIF and
/// XMP kept; an EXIF orientation other than 1 (`--keep-orientation`) is written as
/// HEIF's `irot`/`imir` too, which is what AVIF readers apply.
public struct AVIFImageEncoder: ImageEncoder {
    public let encoder: AVIFEncoder

    /// `quality` on the scale JPEG's and WebP's `--quality` use (see `libheifQuality`); `effort`
    /// 0 (fastest) to 9, as libvips's, aom's speed being 9 minus it.
    public init(quality: Int, effort: Int, threads: Int) {
        encoder = AVIFEncoder(quality: Self.libheifQuality(quality), speed: 9 - min(max(effort, 0), 9),
                              threads: WorkerThreads.count(forSetting: threads))
    }

    /// libheif's quality for a `--quality` of `jpegScale`: the AVIF quality whose PSNR matched a
    /// 4:2:0 JPEG's of that quality on two real phone photos at 1024 px (docs/avif.md), so that
    /// one `--quality` means one look whichever format is asked; at 90 the AVIF was 45 to 55 %
    /// of the JPEG's bytes. Between the measured points the quality is interpolated.
    public static func libheifQuality(_ jpegScale: Int) -> Int {
        let measured: [(jpeg: Double, avif: Double)] = [(0, 0), (50, 31), (70, 40), (80, 47), (90, 56), (95, 68), (100, 100)]
        let wanted = Double(min(max(jpegScale, 0), 100))
        let above = measured.firstIndex { $0.jpeg >= wanted }!
        if above == 0 { return 0 }
        let (low, high) = (measured[above - 1], measured[above])
        return Int((low.avif + (wanted - low.jpeg) / (high.jpeg - low.jpeg) * (high.avif - low.avif)).rounded())
    }

    /// Pictures of at most 64x64 pixels are written at libheif's quality 90 at least.
    static let iconPixels = 64 * 64
    static let iconQuality = 90

    public func write(_ pixels: PixelBuffer, metadata: PictureMetadata, to descriptor: Int32) throws -> [String] {
        try AVIFEncoder.refuseLargerThanAomEncodes(width: pixels.width, height: pixels.height)
        var warnings = metadata.gammaLeftOut(by: "AVIF")
        let hasAlpha = pixels.channels == 2 || pixels.channels == 4
        let channels = hasAlpha ? 4 : 3
        var avifMetadata = AVIFEncoder.Metadata(iccProfile: metadata.color?.iccProfile, exif: metadata.exif, xmp: metadata.xmp)
        var ignored: [String] = []
        avifMetadata.orientation = Orientation.stated(exif: metadata.exif, xmp: nil, warnings: &ignored).rawValue
        if let codePoints = metadata.codePoints {
            // HDR kept as HDR: 10 bits, which Debian 12's libheif cannot give aom (AVIFEncoder),
            // through FFmpeg; tagged with the picture's own primaries and transfer.
            guard pixels.bytesPerSample == 2, pixels.channels >= 3, codePoints.count >= 2 else {
                throw HEIFError.encoding("HDR kept as HDR needs 16-bit RGB pixels, not \(pixels.channels) channels of \(pixels.bytesPerSample * 8) bits")
            }
            let bytes = try HDRAVIFWriter.encode(HDRAVIFWriter.Picture(width: pixels.width, height: pixels.height, channels: pixels.channels, samples: pixels.bytes),
                                                 primaries: Int(codePoints[0]), transfer: Int(codePoints[1]),
                                                 crf: encoder.quantiser, speed: encoder.speed, threads: encoder.threads)
            if hasAlpha { warnings.append("HDR AVIF is written without alpha here: transparent pixels were written opaque") }
            return try Self.write(bytes, to: descriptor, warnings: warnings)
        }
        let samples = pixels.eightBitColour(channels: channels)
        var encoder = self.encoder
        // An icon's file is mostly its container (some 300 bytes): at the mapped quality 15 of
        // 400 real-world pictures, all icons of 48x48 or less, came out under 36 dB of their
        // PNG; at libheif's 90 they cost some 200 bytes more.
        if pixels.width * pixels.height <= Self.iconPixels { encoder.quality = max(encoder.quality, Self.iconQuality) }
        let bytes = try samples.withUnsafeBytes { raw in
            try encoder.encode(AVIFEncoder.Pixels(width: pixels.width, height: pixels.height, channels: channels, samples: raw), metadata: avifMetadata)
        }
        return try Self.write(bytes, to: descriptor, warnings: warnings)
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32, warnings: [String]) throws -> [String] {
        let output = BufferedOutput(descriptor: descriptor, displayName: "the AVIF output")
        try output.write(bytes)
        try output.flush()
        return warnings
    }
}
