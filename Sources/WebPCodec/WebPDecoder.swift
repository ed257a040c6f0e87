import CWebP
import FileIO

/// A WebP file read through libwebp: its size, alpha, animation and metadata chunks from the
/// header, and a region decoded without the rest (libwebp's cropping stops after the region's last
/// row). An animated file gives its first frame, composed on its canvas.
public final class WebPDecoder {
    public let width: Int
    public let height: Int
    public let hasAlpha: Bool
    public let isAnimated: Bool
    /// VP8L (lossless) rather than VP8; false for an animation, whose frames may be either.
    public let isLossless: Bool
    /// The frame of an animation that decoding gives (0: the first).
    public var frameIndex = 0
    public private(set) var iccProfile: [UInt8]?
    /// The EXIF chunk's TIFF block ("Exif\0\0" dropped, which some writers put before it).
    public private(set) var exif: [UInt8]?
    public private(set) var xmp: [UInt8]?
    private let bytes: [UInt8]

    /// The bytes of a WebP file: "RIFF", its size, "WEBP", then chunks.
    public static func hasSignature(_ start: [UInt8]) -> Bool {
        start.count >= 12 && start[0..<4].elementsEqual("RIFF".utf8) && start[8..<12].elementsEqual("WEBP".utf8)
    }

    /// Frames of an animation, counted by their ANMF chunks (1 for a still picture).
    public private(set) var frameCount = 1
    /// Made by `init(headerOf:)`: the header's facts only, nothing to decode from.
    public let isHeaderOnly: Bool

    public init(bytes: [UInt8]) throws(WebPError) {
        self.bytes = bytes
        isHeaderOnly = false
        (width, height, hasAlpha, isAnimated, isLossless) = try Self.features(bytes)
        readChunks()
        if isAnimated { frameCount = max(1, frameDurations.count) }
    }

    /// The header of a WebP file that stays on disk (`probe`): the features from its first bytes,
    /// the chunks by their headers, their data read only for ICCP, EXIF and XMP. Nothing decodes.
    public init(headerOf file: InputFile) throws {
        let start = try Self.read(file, at: 0, count: 64 << 10)
        bytes = []
        isHeaderOnly = true
        (width, height, hasAlpha, isAnimated, isLossless) = try Self.features(start)
        let size = file.size ?? start.count
        var at = 12, frames = 0
        while at + 8 <= size {
            let header = try Self.read(file, at: at, count: 8)
            guard header.count == 8 else { break }
            let type = String(decoding: header[0..<4], as: UTF8.self)
            let length = Int(header[4]) | Int(header[5]) << 8 | Int(header[6]) << 16 | Int(header[7]) << 24
            guard length <= size - at - 8 else { break }
            switch type {
            case "ICCP" where iccProfile == nil: iccProfile = try Self.read(file, at: at + 8, count: length)
            case "EXIF" where exif == nil:
                let payload = try Self.read(file, at: at + 8, count: length)
                exif = payload.starts(with: Array("Exif\0\0".utf8)) ? Array(payload.dropFirst(6)) : payload
            case "XMP " where xmp == nil: xmp = try Self.read(file, at: at + 8, count: length)
            case "ANMF": frames += 1
            default: break
            }
            at += 8 + length + (length & 1)
        }
        if isAnimated { frameCount = max(1, frames) }
    }

    private static func read(_ file: InputFile, at offset: Int, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try bytes.withUnsafeMutableBytes { try file.read(at: offset, into: $0) }
        return Array(bytes.prefix(got))
    }

    private static func features(_ bytes: [UInt8]) throws(WebPError) -> (Int, Int, Bool, Bool, Bool) {
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        guard status == VP8_STATUS_OK, features.width > 0, features.height > 0 else {
            throw .decodingFailed(Self.describe(status))
        }
        return (Int(features.width), Int(features.height), features.has_alpha != 0, features.has_animation != 0, features.format == 2)
    }

    /// ICCP, EXIF and "XMP " chunks; a chunk that runs past the file ends the walk.
    private func readChunks() {
        var at = 12
        while at + 8 <= bytes.count {
            let type = String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
            let size = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]) << 16 | Int(bytes[at + 7]) << 24
            guard size <= bytes.count - at - 8 else { return }
            let payload = Array(bytes[(at + 8)..<(at + 8 + size)])
            switch type {
            case "ICCP": iccProfile = iccProfile ?? payload
            case "EXIF": exif = exif ?? (payload.starts(with: Array("Exif\0\0".utf8)) ? Array(payload.dropFirst(6)) : payload)
            case "XMP ": xmp = xmp ?? payload
            default: break
            }
            at += 8 + size + (size & 1)
        }
    }

    /// Columns `x ..< x + regionWidth`, rows `y ..< y + regionHeight`, as RGB or RGBA (`hasAlpha`).
    public func decode(x: Int, y: Int, width regionWidth: Int, height regionHeight: Int) throws(WebPError) -> [UInt8] {
        let channels = hasAlpha ? 4 : 3
        if isAnimated { return try animationFrame(x: x, y: y, width: regionWidth, height: regionHeight, channels: channels) }
        // At a crop's edge libwebp has no neighbours to upsample chroma or filter blocks from: a
        // crop one macroblock (16 pixels) wider on each side, where the picture has one, gives the
        // edges as a whole decoding does. libwebp starts a crop on even coordinates; the rect asked
        // for is kept.
        let margin = 16
        let left = max(0, x - margin) & ~1, top = max(0, y - margin) & ~1
        let cropWidth = min(width, x + regionWidth + margin) - left, cropHeight = min(height, y + regionHeight + margin) - top
        let decoded = try decode(outputWidth: cropWidth, outputHeight: cropHeight) { options in
            options.use_cropping = 1
            options.crop_left = Int32(left)
            options.crop_top = Int32(top)
            options.crop_width = Int32(cropWidth)
            options.crop_height = Int32(cropHeight)
        }
        let stride = cropWidth * channels
        return Self.region(of: decoded, stride: stride, x: x - left, y: y - top, width: regionWidth, height: regionHeight, channels: channels)
    }

    /// The whole picture scaled to `scaledWidth` x `scaledHeight` by libwebp as it decodes (its
    /// area-averaging rescaler), as RGB or RGBA (`hasAlpha`). Not for an animation.
    public func decode(scaledWidth: Int, scaledHeight: Int) throws(WebPError) -> [UInt8] {
        precondition(!isAnimated)
        return try decode(outputWidth: scaledWidth, outputHeight: scaledHeight) { options in
            if scaledWidth != width || scaledHeight != height {
                options.use_scaling = 1
                options.scaled_width = Int32(scaledWidth)
                options.scaled_height = Int32(scaledHeight)
            }
        }
    }

    /// One decoding into RGB or RGBA rows of `outputWidth` x `outputHeight` (the crop or the scaled
    /// size that `setting` asks of libwebp's options).
    private func decode(outputWidth: Int, outputHeight: Int, setting: (inout WebPDecoderOptions) -> Void) throws(WebPError) -> [UInt8] {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw .decodingFailed("libwebp version mismatch") }
        setting(&config.options)
        // libwebp's second thread filters rows while the first decodes the next (what vips asks too).
        config.options.use_threads = 1
        config.output.colorspace = hasAlpha ? MODE_RGBA : MODE_RGB
        config.output.is_external_memory = 1
        let stride = outputWidth * (hasAlpha ? 4 : 3)
        var decoded = [UInt8](repeating: 0, count: stride * outputHeight)
        let status = decoded.withUnsafeMutableBufferPointer { output in
            config.output.u.RGBA.rgba = output.baseAddress
            config.output.u.RGBA.stride = Int32(stride)
            config.output.u.RGBA.size = output.count
            return bytes.withUnsafeBufferPointer { WebPDecode($0.baseAddress, $0.count, &config) }
        }
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else { throw .decodingFailed(Self.describe(status)) }
        return decoded
    }

    /// How long each frame of an animation shows, in milliseconds, as its frames say (libwebp's demuxer).
    public var frameDurations: [Int] {
        bytes.withUnsafeBufferPointer { file -> [Int] in
            var data = WebPData(bytes: file.baseAddress, size: file.count)
            guard let demux = WebPDemux(&data) else { return [] }
            defer { WebPDemuxDelete(demux) }
            let count = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
            var iterator = WebPIterator()
            var durations: [Int] = []
            for number in 1...max(1, count) where count > 0 {
                guard WebPDemuxGetFrame(demux, Int32(number), &iterator) != 0 else { break }
                durations.append(Int(max(0, iterator.duration)))
                WebPDemuxReleaseIterator(&iterator)
            }
            return durations
        }
    }

    /// The frame `frameIndex` of an animation, composed on the canvas by libwebp's animation decoder
    /// (every frame before it composed too: a frame may be a patch over the ones before).
    private func animationFrame(x: Int, y: Int, width regionWidth: Int, height regionHeight: Int, channels: Int) throws(WebPError) -> [UInt8] {
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw .decodingFailed("libwebp version mismatch") }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        let canvas: [UInt8]? = bytes.withUnsafeBufferPointer { file in
            var data = WebPData(bytes: file.baseAddress, size: file.count)
            guard let decoder = WebPAnimDecoderNew(&data, &options) else { return nil }
            defer { WebPAnimDecoderDelete(decoder) }
            var frame: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            for _ in 0...frameIndex {
                guard WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, frame != nil else { return nil }
            }
            return frame.map { Array(UnsafeBufferPointer(start: $0, count: width * height * 4)) }
        }
        guard let canvas else { throw .decodingFailed("the animation's frame \(frameIndex + 1) could not be decoded") }
        let rgba = Self.region(of: canvas, stride: width * 4, x: x, y: y, width: regionWidth, height: regionHeight, channels: 4)
        if channels == 4 { return rgba }
        return (0..<(regionWidth * regionHeight)).flatMap { rgba[($0 * 4)..<($0 * 4 + 3)] }
    }

    private static func region(of decoded: [UInt8], stride: Int, x: Int, y: Int, width: Int, height: Int, channels: Int) -> [UInt8] {
        let rowBytes = width * channels
        if x == 0 && stride == rowBytes && y == 0 && decoded.count == rowBytes * height { return decoded }
        var result = [UInt8](repeating: 0, count: rowBytes * height)
        for row in 0..<height {
            let from = (y + row) * stride + x * channels
            result.replaceSubrange((row * rowBytes)..<((row + 1) * rowBytes), with: decoded[from..<(from + rowBytes)])
        }
        return result
    }

    static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: return "out of memory"
        case VP8_STATUS_INVALID_PARAM: return "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: return "corrupt data (bitstream error)"
        case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature"
        case VP8_STATUS_SUSPENDED: return "suspended"
        case VP8_STATUS_USER_ABORT: return "aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: return "truncated (not enough data)"
        default: return "status \(status.rawValue)"
        }
    }
}
