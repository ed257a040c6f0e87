import Imaging
import CPNGShim
import FileIO

/// Reads a PNG file through libpng, every colour type and depth expanded to 8 or 16-bit gray,
/// gray+alpha, RGB or RGBA. Owns the libpng reader; libpng's longjmp stays inside the C shim.
public final class PNGDecoder {
    private let reader: OpaquePointer
    public let width: Int
    public let height: Int
    public let layout: PNGPixelLayout
    public let isInterlaced: Bool
    public let color: ColorDescription
    private var rowsRead = 0

    /// `checksumsVerifiedElsewhere`: the caller checks every CRC itself (`PNGChunks.verifyChecksums`),
    /// so libpng need not compute them, nor zlib's Adler-32.
    public init(file: InputFile, checksumsVerifiedElsewhere: Bool = false) throws(PNGError) {
        var header = mt_png_header()
        var message = [CChar](repeating: 0, count: Int(MT_ERROR_MESSAGE_CAPACITY))
        guard let opened = mt_png_open(file.descriptor, &header, checksumsVerifiedElsewhere ? 1 : 0, &message) else {
            throw .library(message: PNGError.text(of: message))
        }
        reader = opened
        width = Int(header.width)
        height = Int(header.height)
        let channels: PNGPixelLayout.Channels = [.gray, .grayAlpha, .rgb, .rgba][Int(header.channels) - 1]
        layout = PNGPixelLayout(channels: channels, bitDepth: Int(header.bit_depth))
        isInterlaced = header.interlaced != 0
        color = ColorDescription(header.color)
    }

    deinit {
        mt_png_close(reader)
    }

    /// Bytes of memory decoding needs beyond the region itself: libpng's rows and ours, and for an
    /// interlaced picture the whole picture (every pass covers all of it).
    public var workingBytes: Int {
        Self.workingBytes(width: width, height: height, bytesPerPixel: layout.bytesPerPixel, isInterlaced: isInterlaced)
    }

    static func workingBytes(width: Int, height: Int, bytesPerPixel: Int, isInterlaced: Bool) -> Int {
        let rowBytes = width * bytesPerPixel
        let (bytes, overflow) = rowBytes.multipliedReportingOverflow(by: isInterlaced ? height + 3 : 4)
        return overflow ? Int.max : bytes
    }

    /// The pixels of columns `x ..< x + columns`, rows `y ..< y + rows`, packed. Rows above are
    /// decoded and dropped; rows below are never inflated, unless the file is interlaced (every
    /// pass covers the whole picture, so it is decoded whole).
    public func readRegion(x: Int, y: Int, columns: Int, rows: Int) throws(PNGError) -> [UInt8] {
        precondition(x >= 0 && y >= rowsRead && columns > 0 && rows > 0 && x + columns <= width && y + rows <= height)
        let pixelBytes = layout.bytesPerPixel
        let rowBytes = width * pixelBytes
        let regionRowBytes = columns * pixelBytes
        var message = [CChar](repeating: 0, count: Int(MT_ERROR_MESSAGE_CAPACITY))
        var region = [UInt8](repeating: 0, count: regionRowBytes * rows)

        if isInterlaced {
            var whole = [UInt8](repeating: 0, count: rowBytes * height)
            let status = whole.withUnsafeMutableBufferPointer { pixels in
                let pointers: [UnsafeMutablePointer<UInt8>?] = (0..<height).map { pixels.baseAddress! + $0 * rowBytes }
                return mt_png_read_image(reader, pointers, &message)
            }
            guard status == 0 else { throw .library(message: PNGError.text(of: message)) }
            for row in 0..<rows {
                let from = (y + row) * rowBytes + x * pixelBytes
                region.replaceSubrange((row * regionRowBytes)..<((row + 1) * regionRowBytes),
                                       with: whole[from..<(from + regionRowBytes)])
            }
            rowsRead = height
            return region
        }

        let skip = y - rowsRead
        if skip > 0 {
            let dropped = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: skip)
            guard mt_png_read_rows(reader, dropped, UInt32(skip), &message) == 0 else {
                throw .library(message: PNGError.text(of: message))
            }
        }
        // Whole rows come from libpng; the wanted columns are copied out of each.
        var row = [UInt8](repeating: 0, count: rowBytes)
        for index in 0..<rows {
            let status = row.withUnsafeMutableBufferPointer { buffer in
                let pointers: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress]
                return mt_png_read_rows(reader, pointers, 1, &message)
            }
            guard status == 0 else { throw .library(message: PNGError.text(of: message)) }
            region.withUnsafeMutableBytes { destination in
                row.withUnsafeBytes { source in
                    (destination.baseAddress! + index * regionRowBytes)
                        .copyMemory(from: source.baseAddress! + x * pixelBytes, byteCount: regionRowBytes)
                }
            }
        }
        rowsRead = y + rows
        return region
    }
}
