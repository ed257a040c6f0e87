import Imaging
import CPNGShim
import CPNG
import WorkerPool

/// Writes PNG images through libpng. libpng's longjmp stays inside the C shim.
public struct PNGEncoder: Sendable {
    /// zlib level 0 (none) to 9 (smallest).
    public var compressionLevel: Int
    /// zlib's strategy: 0 default, 1 filtered, 2 Huffman only, 3 run-length.
    public var strategy: Int32
    /// The row filters libpng may choose from, as a mask of PNG_FILTER_* values; 0 for libpng's own choice.
    public var filters: Int32
    /// Threads that filter and compress bands; 0 for every core.
    public var threads: Int = 0

    public static let filterUp = Int32(PNG_FILTER_UP)
    public static let filterNone = Int32(PNG_FILTER_NONE)

    public static let runLengthStrategy: Int32 = 3

    public init(compressionLevel: Int = 6, strategy: Int32 = 0, filters: Int32 = 0) {
        self.compressionLevel = compressionLevel
        self.strategy = strategy
        self.filters = filters
    }

    /// Writes `pixels`, rows of `width` pixels top to bottom with no padding, to `descriptor`.
    /// `exif`, a TIFF-headed EXIF block, goes into an eXIf chunk before the image data. Returns what
    /// was left out of the colour description (a profile libpng finds invalid), one line each.
    @discardableResult
    public func write(width: Int, height: Int, layout: PNGPixelLayout, pixels: UnsafeRawBufferPointer,
                      exif: [UInt8]? = nil, xmp: [UInt8]? = nil, cicp: [UInt8]? = nil, color: ColorDescription? = nil,
                      to descriptor: Int32) throws(PNGError) -> [String] {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .invalidSize(width: width, height: height)
        }
        let rowBytes = width * layout.bytesPerPixel
        guard pixels.count == rowBytes * height else {
            throw .pixelCountMismatch(expectedBytes: rowBytes * height, foundBytes: pixels.count)
        }
        let base = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let level = Int32(max(0, min(9, compressionLevel)))
        // None or Up alone: filtered and compressed here, on every core. Any other choice of
        // filters is libpng's to make, row by row.
        var imageData: [UInt8]?
        if filters == Self.filterUp || filters == Self.filterNone {
            imageData = try PNGImageData(rows: base, rowBytes: rowBytes, height: height, usesUpFilter: filters == Self.filterUp,
                                         level: level, strategy: strategy).compressed(threads: WorkerThreads.count(forSetting: threads))
        }
        let rows: [UnsafePointer<UInt8>?] = imageData != nil ? [] : (0..<height).map { base + $0 * rowBytes }
        // iTXt text is UTF-8 without NULs, handed to libpng NUL-terminated.
        let packet: [UInt8]? = xmp.flatMap { $0.contains(0) ? nil : $0 + [0] }
        var message = [CChar](repeating: 0, count: Int(MT_ERROR_MESSAGE_CAPACITY))
        var warning = [CChar](repeating: 0, count: Int(MT_ERROR_MESSAGE_CAPACITY))
        let status = rows.withUnsafeBufferPointer { rowPointers in
            (imageData ?? []).withUnsafeBufferPointer { compressed in
                (exif ?? []).withUnsafeBufferPointer { exifBytes in
                  (packet ?? []).withUnsafeBufferPointer { xmpText in
                   (cicp ?? []).withUnsafeBufferPointer { codePoints in
                    (color ?? ColorDescription()).withCInfo { colorInfo in
                        mt_png_write(descriptor, UInt32(width), UInt32(height), Int32(layout.bitDepth),
                                      layout.channels.colorType, rowPointers.baseAddress,
                                      imageData == nil ? nil : compressed.baseAddress, compressed.count,
                                      level, strategy, filters,
                                      exif == nil ? nil : exifBytes.baseAddress, UInt32(exifBytes.count),
                                      packet == nil ? nil : UnsafeRawPointer(xmpText.baseAddress!).assumingMemoryBound(to: CChar.self),
                                      cicp?.count == 4 ? codePoints.baseAddress : nil,
                                      color == nil ? nil : colorInfo, &warning, &message)
                    }
                   }
                  }
                }
            }
        }
        if status != 0 { throw .library(message: PNGError.text(of: message)) }
        let left = PNGError.text(of: warning)
        return left.isEmpty ? [] : ["colour metadata left out: \(left)"]
    }
}
