import Imaging
import FileIO
import WebPCodec

/// WebP output through libwebp: lossy at `--quality`, or lossless; 8-bit RGB, RGBA where the
/// picture has alpha (gray is written as RGB, 16-bit samples rounded); the ICC profile, EXIF and
/// XMP in their chunks. PNG's sRGB, gAMA and cHRM have no WebP chunk: WebP without a profile is sRGB.
public struct WebPImageEncoder: ImageEncoder {
    public var encoder: WebPEncoder

    public init(_ encoder: WebPEncoder) {
        self.encoder = encoder
    }

    public func write(_ pixels: PixelBuffer, metadata: PictureMetadata, to descriptor: Int32) throws -> [String] {
        let warnings = metadata.gammaLeftOut(by: "WebP")
        let hasAlpha = pixels.channels == 2 || pixels.channels == 4
        let channels = hasAlpha ? 4 : 3
        let samples = Self.eightBitColour(pixels, channels: channels)
        let bytes = try samples.withUnsafeBytes { raw in
            try encoder.encode(width: pixels.width, height: pixels.height, channels: channels, pixels: raw,
                               metadata: WebPMetadata(iccProfile: metadata.color?.iccProfile, exif: metadata.exif, xmp: metadata.xmp))
        }
        let output = BufferedOutput(descriptor: descriptor, displayName: "the WebP output")
        try output.write(bytes)
        try output.flush()
        return warnings
    }

    /// 8-bit RGB or RGBA: gray spread to three channels, 16-bit samples rounded.
    static func eightBitColour(_ pixels: PixelBuffer, channels: Int) -> [UInt8] {
        if pixels.bytesPerSample == 1 && pixels.channels == channels { return pixels.bytes }
        let count = pixels.width * pixels.height
        let colours = pixels.channels <= 2 ? 1 : 3
        var result = [UInt8](repeating: 0, count: count * channels)
        pixels.bytes.withUnsafeBufferPointer { source in
            let step = pixels.bytesPerSample
            for pixel in 0..<count {
                let base = pixel * pixels.channels * step
                let sample = { (channel: Int) -> UInt8 in
                    PixelBuffer.eightBitSample(source, at: base + step * channel, bytesPerSample: step)
                }
                for channel in 0..<3 { result[pixel * channels + channel] = sample(colours == 1 ? 0 : channel) }
                if channels == 4 { result[pixel * channels + 3] = sample(colours) }
            }
        }
        return result
    }
}
