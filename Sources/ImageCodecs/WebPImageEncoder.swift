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
        let samples = pixels.eightBitColour(channels: channels)
        let bytes = try samples.withUnsafeBytes { raw in
            try encoder.encode(width: pixels.width, height: pixels.height, channels: channels, pixels: raw,
                               metadata: WebPMetadata(iccProfile: metadata.color?.iccProfile, exif: metadata.exif, xmp: metadata.xmp))
        }
        let output = BufferedOutput(descriptor: descriptor, displayName: "the WebP output")
        try output.write(bytes)
        try output.flush()
        return warnings
    }
}
