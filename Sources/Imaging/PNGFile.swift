import MediaIO
import PNGCodec

/// Writing pixel buffers as PNG files, atomically.
public enum PNGFile {
    public static func write(_ pixels: PixelBuffer, to path: String, overwrite: Bool,
                             compressionLevel: Int, exif: [UInt8]? = nil) throws {
        let channels: PNGPixelLayout.Channels
        switch pixels.channels {
        case 1: channels = .gray
        case 2: channels = .grayAlpha
        case 3: channels = .rgb
        default: channels = .rgba
        }
        let file = try AtomicOutputFile(path: path, overwrite: overwrite)
        try pixels.bytes.withUnsafeBytes { bytes in
            try PNGEncoder(compressionLevel: compressionLevel).write(
                width: pixels.width, height: pixels.height,
                layout: PNGPixelLayout(channels: channels, bitDepth: pixels.bytesPerSample * 8),
                pixels: bytes, exif: exif, to: file.descriptor)
        }
        try file.commit()
    }
}
