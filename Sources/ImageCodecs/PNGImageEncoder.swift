import Imaging
import PNGCodec

/// PNG output: 8 and 16-bit gray, gray+alpha, RGB and RGBA, with eXIf and the colour chunks.
public struct PNGImageEncoder: ImageEncoder {
    /// zlib level 1 by default: level 6 took 2 to 3 times as long on a noisy 1500x1000 crop and on a
    /// 1080p frame, for files 10 to 20% smaller.
    public static let defaultCompressionLevel = 1

    /// Run-length matching only: on both of those pictures it was faster than zlib's default
    /// strategy at level 1 and gave smaller files (3.00 MB against 3.18 MB; 365 KB against 407 KB).
    static let strategy = PNGEncoder.runLengthStrategy

    /// The row filter: the Up filter alone. libpng's adaptive choice among all five filters tripled
    /// the time of a 1080p frame (150 ms against 50 ms at zlib level 1) for 3% less.
    static let filters = PNGEncoder.filterUp

    public var compressionLevel: Int
    /// Threads compressing bands; 0 for every core.
    public var threads: Int

    public init(compressionLevel: Int = defaultCompressionLevel, threads: Int = 0) {
        self.compressionLevel = compressionLevel
        self.threads = threads
    }

    public func write(_ pixels: PixelBuffer, metadata: PictureMetadata, to descriptor: Int32) throws -> [String] {
        let channels: PNGPixelLayout.Channels = [.gray, .grayAlpha, .rgb, .rgba][pixels.channels - 1]
        return try pixels.bytes.withUnsafeBytes { bytes in
            var encoder = PNGEncoder(compressionLevel: compressionLevel, strategy: Self.strategy, filters: Self.filters)
            encoder.threads = threads
            return try encoder.write(
                width: pixels.width, height: pixels.height,
                layout: PNGPixelLayout(channels: channels, bitDepth: pixels.bytesPerSample * 8),
                pixels: bytes, exif: metadata.exif, xmp: metadata.xmp, cicp: metadata.codePoints, color: metadata.color, to: descriptor)
        }
    }
}
