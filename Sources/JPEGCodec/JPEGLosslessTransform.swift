import CJPEGShim
import CTurboJPEG

/// jpegtran's lossless transforms through TurboJPEG: a JPEG's DCT blocks turned, mirrored and
/// cropped without decoding them, so the output loses nothing the source had.
public enum JPEGLosslessTransform {
    /// The turn or mirror applied to the blocks, in TurboJPEG's (and jpegtran's) terms.
    public enum Operation: Int32, Sendable {
        case none, mirrorHorizontal, mirrorVertical, transpose, transverse, rotate90, rotate180, rotate270

        var turboJPEG: Int32 {
            switch self {
            case .none: return Int32(TJXOP_NONE.rawValue)
            case .mirrorHorizontal: return Int32(TJXOP_HFLIP.rawValue)
            case .mirrorVertical: return Int32(TJXOP_VFLIP.rawValue)
            case .transpose: return Int32(TJXOP_TRANSPOSE.rawValue)
            case .transverse: return Int32(TJXOP_TRANSVERSE.rawValue)
            case .rotate90: return Int32(TJXOP_ROT90.rawValue)
            case .rotate180: return Int32(TJXOP_ROT180.rawValue)
            case .rotate270: return Int32(TJXOP_ROT270.rawValue)
            }
        }

        /// Whether the picture's axes swap.
        public var transposes: Bool {
            self == .transpose || self == .transverse || self == .rotate90 || self == .rotate270
        }

        /// Whether the output's x and y axes run against the source's (mirrored), where the
        /// partial blocks at the source's right and bottom edges cannot follow and are trimmed.
        public var mirrorsOutputX: Bool {
            self == .mirrorHorizontal || self == .rotate180 || self == .transverse || self == .rotate90
        }
        public var mirrorsOutputY: Bool {
            self == .mirrorVertical || self == .rotate180 || self == .transverse || self == .rotate270
        }
    }

    /// `jpeg` turned by `operation`, with the partial edge blocks that cannot be turned trimmed
    /// (jpegtran `-trim`), then cropped to `width` x `height` at (`x`, `y`) of that picture; `x` and
    /// `y` on its MCU grid. No marker of the source is copied: the caller adds what it carries.
    public static func apply(_ operation: Operation, to jpeg: UnsafeRawBufferPointer,
                             x: Int, y: Int, width: Int, height: Int, progressive: Bool) throws(JPEGError) -> [UInt8] {
        // TurboJPEG reads every scan with no monitor of ours: the decoder's scan limits are
        // checked first, from the markers (a bogus progression of 400 scans took 46 s here).
        var refusal = [CChar](repeating: 0, count: Int(MT_ERROR_MESSAGE_CAPACITY))
        if mt_jpeg_check_scans(jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self), jpeg.count, &refusal) != 0 {
            throw .library(message: String(decoding: refusal.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let handle = tjInitTransform() else { throw .library(message: "TurboJPEG could not start") }
        defer { tjDestroy(handle) }
        var transform = tjtransform()
        transform.r = tjregion(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height))
        transform.op = operation.turboJPEG
        transform.options = TJXOPT_CROP | TJXOPT_TRIM | TJXOPT_COPYNONE | (progressive ? TJXOPT_PROGRESSIVE : 0)
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        let status = tjTransform(handle, jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count), 1,
                                 // At most 500 scans, as the decoder reads them (see jpeg_read.c).
                                 &output, &outputSize, &transform, TJFLAG_LIMITSCANS)
        defer { tjFree(output) }
        if status != 0 {
            let message = String(cString: tjGetErrorStr2(handle))
            // Bytes between segments harm no block; any other warning is corrupt data, and so are bytes
            // skipped before a restart marker (0xd0 to 0xd7), which lie inside the scan. TurboJPEG
            // keeps only the first warning: found on a real file (Pillow's hopper_bad_exif.jpg),
            // whose crop came out undecodable.
            let insideScan = (0...7).contains { message.contains("before marker 0xd\($0)") }
            let harmless = tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) && message.contains("extraneous bytes") && !insideScan
            if !harmless || output == nil { throw .library(message: message.trimmingTrailingNewlines) }
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
    }
}

private extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return String(text.map { $0.isNewline ? " " : $0 })
    }
}
