import Imaging
import JPEGCodec

/// JPEG output through libjpeg-turbo: 8-bit gray or RGB, EXIF and XMP in APP1, the ICC profile in
/// APP2. 16-bit samples are rounded to 8 bits; alpha is flattened on white, with a warning.
public struct JPEGImageEncoder: ImageEncoder {
    public let encoder: JPEGEncoder

    public init(_ encoder: JPEGEncoder) {
        self.encoder = encoder
    }

    public func write(_ pixels: PixelBuffer, metadata: PictureMetadata, to descriptor: Int32) throws -> [String] {
        var warnings: [String] = []
        let hasAlpha = pixels.channels == 2 || pixels.channels == 4
        if hasAlpha && Self.hasTransparentPixel(pixels) { warnings.append("JPEG has no alpha: transparent pixels were flattened on white") }
        let colours = hasAlpha ? pixels.channels - 1 : pixels.channels
        let eightBit = Self.eightBitOpaque(pixels, colours: colours)
        let segments = JPEGSegments.metadata(exif: metadata.exif, xmp: metadata.xmp, iccProfile: metadata.color?.iccProfile)
        try eightBit.withUnsafeBytes { bytes in
            try encoder.write(width: pixels.width, height: pixels.height, components: colours,
                              pixels: bytes, segments: segments.bytes, to: descriptor)
        }
        return warnings + segments.leftOut
    }

    /// True when an alpha sample is below full: an opaque picture with an alpha channel loses nothing.
    static func hasTransparentPixel(_ pixels: PixelBuffer) -> Bool {
        let step = pixels.bytesPerSample, pixelBytes = pixels.bytesPerPixel
        return pixels.bytes.withUnsafeBufferPointer { bytes in
            var offset = pixelBytes - step
            while offset < bytes.count {
                if bytes[offset] != 0xFF || (step == 2 && bytes[offset + 1] != 0xFF) { return true }
                offset += pixelBytes
            }
            return false
        }
    }

    /// 8-bit samples of the colour channels, alpha composited on white: `(c * a + 255 * (255 - a)) / 255`.
    static func eightBitOpaque(_ pixels: PixelBuffer, colours: Int) -> [UInt8] {
        if pixels.bytesPerSample == 1 && colours == pixels.channels { return pixels.bytes }
        let count = pixels.width * pixels.height
        var result = [UInt8](repeating: 0, count: count * colours)
        pixels.bytes.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { destination in
                let step = pixels.bytesPerSample
                for pixel in 0..<count {
                    let base = pixel * pixels.channels * step
                    let sample = { (channel: Int) -> Int in
                        Int(PixelBuffer.eightBitSample(source, at: base + step * channel, bytesPerSample: step))
                    }
                    let alpha = colours == pixels.channels ? 255 : sample(colours)
                    for channel in 0..<colours {
                        destination[pixel * colours + channel] = UInt8((sample(channel) * alpha + 255 * (255 - alpha) + 127) / 255)
                    }
                }
            }
        }
        return result
    }
}
