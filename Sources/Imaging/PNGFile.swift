import MediaIO
import PNGCodec

/// Writing pixel buffers as PNG files, atomically.
public enum PNGFile {
    /// zlib level 1 by default: level 6 took 2 to 3 times as long on a noisy 1500x1000 crop and on a
    /// 1080p frame, for files 10 to 20% smaller.
    public static let defaultCompressionLevel = 1

    /// Run-length matching only: on both of those pictures it was faster than zlib's default
    /// strategy at level 1 and gave smaller files (3.00 MB against 3.18 MB; 365 KB against 407 KB).
    public static let defaultStrategy = PNGEncoder.runLengthStrategy

    /// The row filter by default: the Up filter alone. libpng's adaptive choice among all five
    /// filters tripled the time of a 1080p frame (150 ms against 50 ms at zlib level 1) for 3% less.
    public static let defaultFilters = PNGEncoder.filterUp

    /// Writes `pixels` as a PNG to `descriptor` (an `AtomicOutputFile`'s, which the caller commits).
    /// Returns what was left out of the colour description, one line each.
    @discardableResult
    public static func write(_ pixels: PixelBuffer, to descriptor: Int32,
                             compressionLevel: Int = defaultCompressionLevel, filters: Int32 = defaultFilters, exif: [UInt8]? = nil,
                             color: PNGColorDescription? = nil) throws -> [String] {
        let channels: PNGPixelLayout.Channels
        switch pixels.channels {
        case 1: channels = .gray
        case 2: channels = .grayAlpha
        case 3: channels = .rgb
        default: channels = .rgba
        }
        return try pixels.bytes.withUnsafeBytes { bytes in
            try PNGEncoder(compressionLevel: compressionLevel, strategy: defaultStrategy, filters: filters).write(
                width: pixels.width, height: pixels.height,
                layout: PNGPixelLayout(channels: channels, bitDepth: pixels.bytesPerSample * 8),
                pixels: bytes, exif: exif, color: color, to: descriptor)
        }
    }
}
