import CJPEGShim
import FileIO

/// Reads a JPEG file through libjpeg-turbo to 8-bit RGB or gray, decoding only the rows and
/// blocks a region needs (jpeg_skip_scanlines, jpeg_crop_scanline). Owns the libjpeg reader;
/// libjpeg's longjmp stays inside the C shim.
public final class JPEGDecoder {
    private let reader: OpaquePointer
    public let width: Int
    public let height: Int
    /// 1 gray or 3 RGB, as decoded.
    public let channels: Int
    /// The TIFF block of the APP1 EXIF segment, if any.
    public let exif: [UInt8]?
    /// The ICC profile of the APP2 segments, if any.
    public let iccProfile: [UInt8]?
    /// Why the APP2 segments gave no profile: metadata, so a note, not an error.
    public let iccNote: String?
    /// Bytes of memory decoding needs beyond the region itself, whatever the region: rows of the
    /// whole width, and for a progressive picture every coefficient of it.
    public let workingBytes: Int
    /// Pixels across and down one MCU, the grid a lossless crop must keep to.
    public let mcuWidth: Int
    public let mcuHeight: Int
    /// The chroma sampling; nil for gray or a sampling without a name.
    public let subsampling: ChromaSubsampling?
    /// The XMP packet of the APP1 XMP segment, if any.
    public let xmp: [UInt8]?
    /// CMYK or YCCK: losslessly transformable, but not decoded to RGB.
    public let isCMYK: Bool
    /// Progressive or multi-scan: libjpeg keeps every coefficient of the picture to decode it.
    public let keepsWholeImage: Bool
    /// Colour components in the file (1 gray, 3 YCbCr, 4 CMYK or YCCK).
    public let components: Int

    public init(file: InputFile) throws(JPEGError) {
        var header = mt_jpeg_header()
        var message = [CChar](repeating: 0, count: Int(MT_ERROR_MESSAGE_CAPACITY))
        guard let opened = mt_jpeg_open(file.descriptor, &header, &message) else {
            throw .library(message: JPEGError.text(of: message))
        }
        reader = opened
        width = Int(header.width)
        height = Int(header.height)
        channels = header.components == 1 ? 1 : 3
        exif = header.exif.map { Array(UnsafeBufferPointer(start: $0, count: Int(header.exif_length))) }
        iccProfile = header.icc_profile.map { Array(UnsafeBufferPointer(start: $0, count: Int(header.icc_profile_length))) }
        iccNote = header.icc_note.map { "ICC profile left out: \(String(cString: $0))" }
        workingBytes = Int(clamping: header.whole_image_bytes &+ header.row_buffer_bytes)
        mcuWidth = Int(header.mcu_width)
        mcuHeight = Int(header.mcu_height)
        subsampling = ChromaSubsampling(stepX: Int(header.chroma_step_x), stepY: Int(header.chroma_step_y))
        xmp = header.xmp.map { Array(UnsafeBufferPointer(start: $0, count: Int(header.xmp_length))) }
        isCMYK = header.is_cmyk != 0
        keepsWholeImage = header.whole_image_bytes > 0
        components = Int(header.components)
    }

    deinit {
        mt_jpeg_close(reader)
    }

    /// The size the picture decodes to at 1/`denominator` (1, 2, 4 or 8), as libjpeg rounds it.
    public func scaledSize(denominator: Int) -> (width: Int, height: Int) {
        ((width + denominator - 1) / denominator, (height + denominator - 1) / denominator)
    }

    /// Whether the last `readScaled` decoded the scan from two places that met (for tests).
    public var splitScanMet: Bool { mt_jpeg_split_met(reader) != 0 }

    /// Whether `readScaled` may split a scan: built against the libjpeg-turbo the split was written
    /// for (2.1), and that library loaded; else every scan is libjpeg's own decoder's.
    public static var splitScanAvailable: Bool { mt_jpeg_split_scan_available() != 0 }

    /// Makes every later `readScaled` decode with libjpeg's own decoder, as with another
    /// libjpeg-turbo (for tests, which compare the two).
    public static func forbidSplitScan(_ forbidden: Bool) { mt_jpeg_forbid_split_scan(forbidden ? 1 : 0) }

    /// The whole picture at 1/`denominator` of its size, top to bottom, in bands of up to `bandRows`
    /// rows given to `band` (the band's bytes, its rows). Call once, instead of `readRegion`.
    /// With `splitScan`, a baseline scan is decoded from two places at once, on this thread and a
    /// helper, to the coefficients libjpeg-turbo's own decoder gives (so to the same pixels).
    public func readScaled(denominator: Int, bandRows: Int = 32, splitScan: SplitScan? = nil,
                           band: (_ bytes: UnsafeRawBufferPointer, _ rows: Int) -> Void) throws(JPEGError) {
        precondition([1, 2, 4, 8].contains(denominator))
        if isCMYK { throw .cmykUnsupported }
        var message = [CChar](repeating: 0, count: Int(MT_ERROR_MESSAGE_CAPACITY))
        var decodedX: UInt32 = 0, decodedWidth: UInt32 = 0, decodedHeight: UInt32 = 0
        let started = withUnsafeSettings(splitScan) { settings in
            mt_jpeg_start(reader, UInt32(denominator), &decodedX, &decodedWidth, &decodedHeight, settings, &message)
        }
        guard started == 0 else {
            throw .library(message: JPEGError.text(of: message))
        }
        let rowBytes = Int(decodedWidth) * channels
        let total = Int(decodedHeight)
        var buffer = [UInt8](repeating: 0, count: rowBytes * min(bandRows, total))
        var done = 0
        while done < total {
            let rows = min(bandRows, total - done)
            let status = buffer.withUnsafeMutableBufferPointer { buffer in
                let pointers: [UnsafeMutablePointer<UInt8>?] = (0..<rows).map { buffer.baseAddress! + $0 * rowBytes }
                return mt_jpeg_read_rows(reader, pointers, UInt32(rows), &message)
            }
            guard status == 0 else { throw .library(message: JPEGError.text(of: message)) }
            buffer.withUnsafeBytes { band(UnsafeRawBufferPointer(rebasing: $0[0..<(rows * rowBytes)]), rows) }
            done += rows
        }
    }

    private func withUnsafeSettings<Result>(_ splitScan: SplitScan?,
                                            _ body: (UnsafePointer<mt_jpeg_split_settings>?) -> Result) -> Result {
        guard let splitScan else { return body(nil) }
        var settings = mt_jpeg_split_settings(tail_share: splitScan.tailShare, store_limit: splitScan.storeLimit,
                                              minimum_bytes: UInt64(splitScan.minimumBytes))
        return body(&settings)
    }

    /// The pixels of columns `x ..< x + columns`, rows `y ..< y + rows`, packed. Call once.
    public func readRegion(x: Int, y: Int, columns: Int, rows: Int) throws(JPEGError) -> [UInt8] {
        precondition(x >= 0 && y >= 0 && columns > 0 && rows > 0 && x + columns <= width && y + rows <= height)
        if isCMYK { throw .cmykUnsupported }
        var message = [CChar](repeating: 0, count: Int(MT_ERROR_MESSAGE_CAPACITY))
        // Chroma is upsampled from its neighbours, and at the edge of a window libjpeg has none: a
        // window one MCU wider on each side (where the picture has one) gives the edge columns
        // exactly as a full decode does. libjpeg widens it further to whole MCUs; the columns asked
        // for are kept.
        let start = max(0, x - mcuWidth)
        var decodedX = UInt32(start), decodedColumns = UInt32(min(width, x + columns + mcuWidth) - start)
        var decodedRows: UInt32 = 0
        guard mt_jpeg_start(reader, 1, &decodedX, &decodedColumns, &decodedRows, nil, &message) == 0 else {
            throw .library(message: JPEGError.text(of: message))
        }
        guard mt_jpeg_skip_rows(reader, UInt32(y), &message) == 0 else {
            throw .library(message: JPEGError.text(of: message))
        }
        let decodedRowBytes = Int(decodedColumns) * channels
        let rowBytes = columns * channels
        let leading = (x - Int(decodedX)) * channels
        var decoded = [UInt8](repeating: 0, count: decodedRowBytes * rows)
        let status = decoded.withUnsafeMutableBufferPointer { buffer in
            let pointers: [UnsafeMutablePointer<UInt8>?] = (0..<rows).map { buffer.baseAddress! + $0 * decodedRowBytes }
            return mt_jpeg_read_rows(reader, pointers, UInt32(rows), &message)
        }
        guard status == 0 else { throw .library(message: JPEGError.text(of: message)) }
        if leading == 0 && decodedRowBytes == rowBytes { return decoded }
        var region = [UInt8](repeating: 0, count: rowBytes * rows)
        region.withUnsafeMutableBytes { destination in
            decoded.withUnsafeBytes { source in
                for row in 0..<rows {
                    (destination.baseAddress! + row * rowBytes)
                        .copyMemory(from: source.baseAddress! + row * decodedRowBytes + leading, byteCount: rowBytes)
                }
            }
        }
        return region
    }
}
