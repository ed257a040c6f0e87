import CWebP
import FileIO
import Reporting

/// The metadata chunks a WebP file carries beside the image (the extended format, RIFF chunks
/// ICCP, EXIF and "XMP ").
public struct WebPMetadata: Sendable {
    public var iccProfile: [UInt8]?
    /// A TIFF-headed EXIF block, as the EXIF chunk holds it (no "Exif" prefix).
    public var exif: [UInt8]?
    public var xmp: [UInt8]?

    public init(iccProfile: [UInt8]? = nil, exif: [UInt8]? = nil, xmp: [UInt8]? = nil) {
        self.iccProfile = iccProfile
        self.exif = exif
        self.xmp = xmp
    }

    var chunks: [(name: String, bytes: [UInt8])] {
        [("ICCP", iccProfile), ("EXIF", exif), ("XMP ", xmp)].compactMap { name, bytes in
            guard let bytes, !bytes.isEmpty else { return nil }
            return (name, bytes)
        }
    }
}

/// Encodes 8-bit RGB or RGBA pixels as WebP through libwebp's simple API (lossy at a quality, or
/// lossless), and adds metadata chunks through libwebpmux.
public struct WebPEncoder: Sendable {
    /// 0 (smallest) to 100 (best), for lossy output.
    public var quality: Int
    public var lossless: Bool

    public init(quality: Int = 90, lossless: Bool = false) {
        self.quality = quality
        self.lossless = lossless
    }

    /// The file's bytes for `height` rows of `width` pixels of 3 (RGB) or 4 (RGBA) bytes.
    public func encode(width: Int, height: Int, channels: Int, pixels: UnsafeRawBufferPointer,
                       metadata: WebPMetadata = WebPMetadata()) throws(WebPError) -> [UInt8] {
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
        let image = UnsafeBufferPointer(start: output, count: size)
        let chunks = metadata.chunks
        return chunks.isEmpty ? Array(image) : try Self.muxing(image, with: chunks)
    }

    /// The image in an extended-format file with the chunks (libwebpmux writes the VP8X header).
    private static func muxing(_ image: UnsafeBufferPointer<UInt8>, with chunks: [(name: String, bytes: [UInt8])]) throws(WebPError) -> [UInt8] {
        guard let mux = WebPMuxNew() else { throw .encodingFailed }
        defer { WebPMuxDelete(mux) }
        var imageData = WebPData(bytes: image.baseAddress, size: image.count)
        let imageStatus = WebPMuxSetImage(mux, &imageData, 1)
        guard imageStatus == WEBP_MUX_OK else { throw .muxFailed(chunk: "image", code: Int(imageStatus.rawValue)) }
        for chunk in chunks {
            let status = chunk.bytes.withUnsafeBufferPointer { bytes in
                var data = WebPData(bytes: bytes.baseAddress, size: bytes.count)
                return WebPMuxSetChunk(mux, chunk.name, &data, 1)
            }
            guard status == WEBP_MUX_OK else { throw .muxFailed(chunk: chunk.name, code: Int(status.rawValue)) }
        }
        var assembled = WebPData()
        let status = WebPMuxAssemble(mux, &assembled)
        guard status == WEBP_MUX_OK, let bytes = assembled.bytes else { throw .muxFailed(chunk: "file", code: Int(status.rawValue)) }
        defer { WebPDataClear(&assembled) }
        return Array(UnsafeBufferPointer(start: bytes, count: assembled.size))
    }
}

/// The libwebp the tool runs with.
public enum WebPLibrary {
    public static var version: LibraryVersion {
        let packed = Int(WebPGetEncoderVersion())
        return LibraryVersion(name: "libwebp", version: "\(packed >> 16).\(packed >> 8 & 0xFF).\(packed & 0xFF)")
    }
}
