import CWebP
import MediaIO

/// Why a picture could not be written as WebP.
public enum WebPError: Error, Equatable, CustomStringConvertible {
    case tooLarge(width: Int, height: Int)
    case encodingFailed

    public var description: String {
        switch self {
        case .tooLarge(let width, let height): return "WebP holds at most 16383x16383 pixels, not \(width)x\(height)"
        case .encodingFailed: return "libwebp could not encode the picture"
        }
    }
}

/// Encodes 8-bit RGB or RGBA pixels as WebP through libwebp's simple API: lossy at a quality, or lossless.
public struct WebPEncoder: Sendable {
    /// 0 (smallest) to 100 (best), for lossy output.
    public var quality: Int
    public var lossless: Bool

    public init(quality: Int = 90, lossless: Bool = false) {
        self.quality = quality
        self.lossless = lossless
    }

    /// The file's bytes for `height` rows of `width` pixels of 3 (RGB) or 4 (RGBA) bytes.
    public func encode(width: Int, height: Int, channels: Int, pixels: UnsafeRawBufferPointer) throws(WebPError) -> [UInt8] {
        precondition((channels == 3 || channels == 4) && pixels.count == width * height * channels)
        guard width > 0, height > 0, width <= 16383, height <= 16383 else { throw .tooLarge(width: width, height: height) }
        let source = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let stride = Int32(width * channels)
        var output: UnsafeMutablePointer<UInt8>?
        let size: Int
        switch (channels, lossless) {
        case (3, false): size = WebPEncodeRGB(source, Int32(width), Int32(height), stride, Float(quality), &output)
        case (4, false): size = WebPEncodeRGBA(source, Int32(width), Int32(height), stride, Float(quality), &output)
        case (3, true): size = WebPEncodeLosslessRGB(source, Int32(width), Int32(height), stride, &output)
        default: size = WebPEncodeLosslessRGBA(source, Int32(width), Int32(height), stride, &output)
        }
        guard size > 0, let output else { throw .encodingFailed }
        defer { WebPFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}

/// The libwebp the tool runs with.
public enum WebPLibrary {
    public static var version: LibraryVersion {
        let packed = Int(WebPGetEncoderVersion())
        return LibraryVersion(name: "libwebp", version: "\(packed >> 16).\(packed >> 8 & 0xFF).\(packed & 0xFF)")
    }
}
