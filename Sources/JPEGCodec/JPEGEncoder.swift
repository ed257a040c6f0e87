import CJPEGShim
import FileIO
import Reporting

/// The libjpeg-turbo the tool is built with (libjpeg has no run-time version call).
public enum JPEGLibrary {
    public static var version: LibraryVersion {
        LibraryVersion(name: "libjpeg-turbo", version: String(cString: mt_jpeg_library_version()))
    }
}

/// Writes 8-bit gray or RGB pixels as a JPEG through libjpeg-turbo (optimised Huffman tables;
/// libjpeg's longjmp stays inside the C shim).
public struct JPEGEncoder: Sendable {
    /// 1 (smallest) to 100 (best).
    public var quality: Int
    public var subsampling: ChromaSubsampling
    public var progressive: Bool

    public init(quality: Int = 90, subsampling: ChromaSubsampling = .s420, progressive: Bool = false) {
        self.quality = quality
        self.subsampling = subsampling
        self.progressive = progressive
    }

    /// Writes `height` rows of `width` pixels of `components` (1 or 3) bytes to `descriptor`, with
    /// `segments` (from `JPEGSegments.metadata`) after the JFIF header.
    public func write(width: Int, height: Int, components: Int, pixels: UnsafeRawBufferPointer,
                      segments: [UInt8] = [], to descriptor: Int32) throws(JPEGError) {
        precondition(components == 1 || components == 3)
        precondition(pixels.count == width * height * components)
        guard width > 0, height > 0, width <= 65500, height <= 65500 else {
            throw .library(message: "JPEG holds at most 65500x65500 pixels, not \(width)x\(height)")
        }
        let base = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let rows: [UnsafePointer<UInt8>?] = (0..<height).map { base + $0 * width * components }
        var message = [CChar](repeating: 0, count: Int(MT_ERROR_MESSAGE_CAPACITY))
        let status = rows.withUnsafeBufferPointer { rowPointers in
            segments.withUnsafeBufferPointer { segmentBytes in
                mt_jpeg_write(descriptor, UInt32(width), UInt32(height), Int32(components), rowPointers.baseAddress,
                              Int32(max(1, min(100, quality))), Int32(subsampling.stepX), Int32(subsampling.stepY),
                              progressive ? 1 : 0, segmentBytes.baseAddress, segmentBytes.count, &message)
            }
        }
        if status != 0 { throw .library(message: JPEGError.text(of: message)) }
    }
}
