import MediaIO
import PNGCodec

/// Writing pixel buffers as PNG files, atomically.
public enum PNGFile {
    /// The row filter by default: the Up filter alone. libpng's adaptive choice among all five
    /// filters tripled the time of a 1080p frame (150 ms against 50 ms at zlib level 1) for 3% less.
    public static let defaultFilters = PNGEncoder.filterUp

    public static func write(_ pixels: PixelBuffer, to path: String, overwrite: Bool,
                             compressionLevel: Int, filters: Int32 = defaultFilters, exif: [UInt8]? = nil,
                             color: PNGColorDescription? = nil) throws {
        let channels: PNGPixelLayout.Channels
        switch pixels.channels {
        case 1: channels = .gray
        case 2: channels = .grayAlpha
        case 3: channels = .rgb
        default: channels = .rgba
        }
        let file = try AtomicOutputFile(path: path, overwrite: overwrite)
        try pixels.bytes.withUnsafeBytes { bytes in
            try PNGEncoder(compressionLevel: compressionLevel, filters: filters).write(
                width: pixels.width, height: pixels.height,
                layout: PNGPixelLayout(channels: channels, bitDepth: pixels.bytesPerSample * 8),
                pixels: bytes, exif: exif, color: color, to: file.descriptor)
        }
        try file.commit()
    }
}
