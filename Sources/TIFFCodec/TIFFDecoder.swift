import CTIFF
import CTIFFShim
import FileIO
import Glibc
import Reporting

/// A TIFF's first image read through libtiff, by pread on the open input: its size, orientation
/// (tag 274) and colour from the tags, and a region read from the strips or tiles it meets only,
/// as 8 or 16-bit gray, gray+alpha, RGB or RGBA (palette expanded, min-is-white inverted,
/// associated alpha made unassociated, 10, 12 and 14-bit samples widened to 16 bits, 16-bit
/// samples big-endian). Old-style JPEG is read through libtiff's RGBA interface.
public final class TIFFDecoder {
    private let tiff: OpaquePointer
    private let source: TIFFSource
    public let width: Int
    public let height: Int
    /// The Orientation tag, 1 to 8 (1 when absent or out of range).
    public let orientation: Int
    /// 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA, as given.
    public let channels: Int
    /// 1 or 2 bytes a sample, as given (2 for 10 to 16-bit samples).
    public let bytesPerSample: Int
    public let iccProfile: [UInt8]?
    /// Bits per stored sample (1 to 16), before widening.
    public let storedBitsPerSample: Int
    public let xmp: [UInt8]?
    private let bits: Int
    private let samplesPerPixel: Int
    private let photometric: Int
    private let associatedAlpha: Bool
    private let tileSize: (width: Int, height: Int)?
    private let rowsPerStrip: Int
    /// RowsPerStrip as the file states it (libtiff reads strips by it), for messages.
    private let statedRowsPerStrip: UInt32
    private let compression: Int
    /// Old-style JPEG (compression 6): only libtiff's RGBA interface decodes it to RGB.
    private let oldJPEG: Bool
    private var palette: [[UInt16]] = []
    /// 1 for interleaved samples; the samples per pixel for colour planes stored apart.
    private let planes: Int

    /// `directory`: the page to read (0, the first; a pyramid's reduced pages follow it).
    public init(file: InputFile, directory: Int = 0) throws {
        TIFFProcessHandlers.installed
        LibraryMessages.clear()
        source = TIFFSource(file: file)
        let handle = Unmanaged.passUnretained(source).toOpaque()
        guard let options = TIFFOpenOptionsAlloc() else { throw TIFFError.library(message: "out of memory") }
        defer { TIFFOpenOptionsFree(options) }
        TIFFOpenOptionsSetErrorHandlerExtR(options, TIFFSource.errorHandler, handle)
        TIFFOpenOptionsSetWarningHandlerExtR(options, TIFFSource.warningHandler, handle)
        // No single allocation of libtiff's beyond this: a hostile strip size cannot take the machine.
        TIFFOpenOptionsSetMaxSingleMemAlloc(options, 1 << 30)
        guard let opened = TIFFClientOpenExt("tiff", "rm", handle, TIFFSource.read, TIFFSource.write, TIFFSource.seek,
                                             TIFFSource.close, TIFFSource.size, TIFFSource.map, TIFFSource.unmap, options) else {
            throw TIFFError.library(message: source.lastError ?? LibraryMessages.take() ?? "not a TIFF file")
        }
        // libtiff opens some damaged directories with an error reported and the rest guessed:
        // a guess is no picture to crop.
        if let error = source.lastError {
            TIFFClose(opened)
            throw TIFFError.library(message: error)
        }
        if directory > 0 {
            guard TIFFSetDirectory(opened, UInt32(directory)) == 1, source.lastError == nil else {
                TIFFClose(opened)
                throw TIFFError.library(message: source.lastError ?? "its page \(directory + 1) cannot be read")
            }
        }
        tiff = opened
        var value32: UInt32 = 0, value16: UInt16 = 0
        _ = mt_tiff_u32(opened, UInt32(TIFFTAG_IMAGEWIDTH), &value32); width = Int(value32)
        _ = mt_tiff_u32(opened, UInt32(TIFFTAG_IMAGELENGTH), &value32); height = Int(value32)
        _ = mt_tiff_u16(opened, UInt32(TIFFTAG_BITSPERSAMPLE), &value16); bits = Int(value16)
        _ = mt_tiff_u16(opened, UInt32(TIFFTAG_SAMPLESPERPIXEL), &value16); samplesPerPixel = Int(value16)
        value16 = 1
        _ = mt_tiff_u16(opened, UInt32(TIFFTAG_SAMPLEFORMAT), &value16); let format = Int(value16)
        value16 = 1
        _ = mt_tiff_u16(opened, UInt32(TIFFTAG_ORIENTATION), &value16)
        orientation = (1...8).contains(Int(value16)) ? Int(value16) : 1
        value16 = 1
        _ = mt_tiff_u16(opened, UInt32(TIFFTAG_PLANARCONFIG), &value16); let planar = Int(value16)
        value16 = 1
        _ = mt_tiff_u16(opened, UInt32(TIFFTAG_COMPRESSION), &value16); let compression = Int(value16)
        value16 = UInt16.max
        if mt_tiff_u16(opened, UInt32(TIFFTAG_PHOTOMETRIC), &value16) != 0 {
            photometric = Int(value16)
        } else {
            // Required, yet missing in some writers' files: what the samples say, as libtiff and Pillow guess.
            photometric = samplesPerPixel >= 3 ? Int(PHOTOMETRIC_RGB) : Int(PHOTOMETRIC_MINISBLACK)
        }
        var extraCount: UInt16 = 0
        var extraTypes: UnsafePointer<UInt16>?
        _ = mt_tiff_extra_samples(opened, &extraCount, &extraTypes)
        let firstExtra = extraCount > 0 ? extraTypes.map { Int($0[0]) } ?? 0 : 0
        var count: UInt32 = 0
        var data: UnsafePointer<UInt8>?
        iccProfile = mt_tiff_bytes(opened, UInt32(TIFFTAG_ICCPROFILE), &count, &data) != 0 ? Array(UnsafeBufferPointer(start: data, count: Int(count))) : nil
        xmp = mt_tiff_bytes(opened, UInt32(TIFFTAG_XMLPACKET), &count, &data) != 0 ? Array(UnsafeBufferPointer(start: data, count: Int(count))) : nil
        if TIFFIsTiled(opened) != 0 {
            var tileWidth: UInt32 = 0, tileHeight: UInt32 = 0
            _ = mt_tiff_u32(opened, UInt32(TIFFTAG_TILEWIDTH), &tileWidth)
            _ = mt_tiff_u32(opened, UInt32(TIFFTAG_TILELENGTH), &tileHeight)
            tileSize = (Int(tileWidth), Int(tileHeight))
            rowsPerStrip = 0
            statedRowsPerStrip = 0
        } else {
            tileSize = nil
            value32 = UInt32.max
            _ = mt_tiff_u32(opened, UInt32(TIFFTAG_ROWSPERSTRIP), &value32)
            statedRowsPerStrip = value32
            rowsPerStrip = max(1, min(Int(value32), height))
        }
        self.compression = compression
        oldJPEG = compression == Int(COMPRESSION_OJPEG)
        let colours: Int
        switch photometric {
        case Int(PHOTOMETRIC_MINISBLACK), Int(PHOTOMETRIC_MINISWHITE): colours = 1
        case Int(PHOTOMETRIC_RGB), Int(PHOTOMETRIC_PALETTE): colours = 3
        case Int(PHOTOMETRIC_YCBCR) where compression == Int(COMPRESSION_JPEG):
            _ = mt_tiff_jpeg_as_rgb(opened)
            colours = 3
        // libtiff's RGBA interface converts old-style JPEG's YCbCr itself.
        case Int(PHOTOMETRIC_YCBCR) where oldJPEG: colours = 3
        case Int(PHOTOMETRIC_YCBCR): TIFFClose(opened); throw TIFFError.unsupportedCompression("YCbCr without JPEG compression")
        default: TIFFClose(opened); throw TIFFError.unsupportedPhotometric(photometric)
        }
        let storedColours = photometric == Int(PHOTOMETRIC_PALETTE) ? 1 : colours
        guard format == 1, [1, 2, 4, 8, 10, 12, 14, 16].contains(bits), bits >= 8 || samplesPerPixel == 1, samplesPerPixel >= storedColours,
              !oldJPEG || bits == 8 else {
            TIFFClose(opened)
            throw TIFFError.unsupportedSamples(bits: bits, format: format)
        }
        guard planar == 1 || samplesPerPixel == 1 || bits >= 8 else { TIFFClose(opened); throw TIFFError.separatePlanes }
        planes = planar == 2 ? samplesPerPixel : 1
        storedBitsPerSample = bits
        if oldJPEG {
            var message = [CChar](repeating: 0, count: 1024)
            guard TIFFRGBAImageOK(opened, &message) != 0 else {
                TIFFClose(opened)
                throw TIFFError.library(message: TIFFDecoder.text(message))
            }
        }
        let hasAlpha = samplesPerPixel > storedColours && photometric != Int(PHOTOMETRIC_PALETTE) && !oldJPEG
        associatedAlpha = hasAlpha && firstExtra == Int(EXTRASAMPLE_ASSOCALPHA)
        channels = colours + (hasAlpha ? 1 : 0)
        bytesPerSample = bits > 8 && photometric != Int(PHOTOMETRIC_PALETTE) ? 2 : 1
        if photometric == Int(PHOTOMETRIC_PALETTE) {
            var red: UnsafePointer<UInt16>?, green: UnsafePointer<UInt16>?, blue: UnsafePointer<UInt16>?
            guard mt_tiff_colormap(opened, &red, &green, &blue) != 0, let red, let green, let blue else {
                TIFFClose(opened)
                throw TIFFError.library(message: "a palette picture without a colour map")
            }
            let entries = 1 << bits
            palette = [red, green, blue].map { Array(UnsafeBufferPointer(start: $0, count: entries)) }
        }
    }

    deinit {
        TIFFClose(tiff)
    }

    /// The pages after the first that say they are the first reduced (SubfileType 1, as pyramids
    /// are written: libvips's `tiffsave --pyramid`, GDAL's overviews), by directory; the first page
    /// is current again afterwards. At most 64 pages are looked at.
    public func reducedPages() -> [(directory: Int, width: Int, height: Int)] {
        let count = min(64, Int(TIFFNumberOfDirectories(tiff)))
        guard count > 1 else { return [] }
        // A level is of the first page's kind of samples: one of other bits, channels or colour
        // model (a CMYK level under an RGB page) is no reduction of it, and its renditions failed.
        let layout = { (tiff: OpaquePointer) -> [UInt16] in
            [UInt32(TIFFTAG_BITSPERSAMPLE), UInt32(TIFFTAG_SAMPLESPERPIXEL), UInt32(TIFFTAG_PHOTOMETRIC)].map { tag in
                var value: UInt16 = 0
                _ = mt_tiff_u16(tiff, tag, &value)
                return value
            }
        }
        _ = TIFFSetDirectory(tiff, 0)
        let first = layout(tiff)
        var pages: [(Int, Int, Int)] = []
        for directory in 1..<count {
            guard TIFFSetDirectory(tiff, UInt32(directory)) == 1 else { break }
            var kind: UInt32 = 0, pageWidth: UInt32 = 0, pageHeight: UInt32 = 0
            _ = mt_tiff_u32(tiff, UInt32(TIFFTAG_SUBFILETYPE), &kind)
            _ = mt_tiff_u32(tiff, UInt32(TIFFTAG_IMAGEWIDTH), &pageWidth)
            _ = mt_tiff_u32(tiff, UInt32(TIFFTAG_IMAGELENGTH), &pageHeight)
            if kind & UInt32(FILETYPE_REDUCEDIMAGE) != 0 && pageWidth > 0 && pageHeight > 0 && layout(tiff) == first {
                pages.append((directory, Int(pageWidth), Int(pageHeight)))
            }
        }
        _ = TIFFSetDirectory(tiff, 0)
        source.lastError = nil
        return pages
    }

    /// The pages of the file that are not reduced copies of another (a pyramid's, looked for among
    /// the first 64 directories).
    public func pageCount() -> Int {
        max(1, Int(TIFFNumberOfDirectories(tiff)) - reducedPages().count)
    }

    /// The compression's common name (`none`, `lzw`, `deflate`, `jpeg`), as libvips and exiftool call them.
    public var compressionName: String {
        let names = [1: "none", 2: "ccitt-rle", 3: "ccitt-fax3", 4: "ccitt-fax4", 5: "lzw", 6: "old-jpeg", 7: "jpeg", 8: "deflate",
                     32773: "packbits", 32946: "deflate", 34887: "lerc", 34925: "lzma", 50000: "zstd", 50001: "webp", 50002: "jpeg-xl"]
        return names[compression] ?? "compression-\(compression)"
    }

    /// The rows of one strip or row of tiles: regions that start and end on them read each block once.
    public var blockRows: Int { max(1, oldJPEG ? bandHeight : tileSize?.height ?? rowsPerStrip) }

    /// Bytes reading any region takes besides the region: one strip or tile (and, for old-style
    /// JPEG, a band of them across the picture as RGBA).
    public var workingBytes: Int {
        let block = Int(tileSize != nil ? TIFFTileSize64(tiff) : TIFFStripSize64(tiff))
        return block + (oldJPEG ? width * bandHeight * 4 : 0)
    }

    /// A message libtiff wrote into a buffer.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The rows one strip or one row of tiles holds.
    private var bandHeight: Int { tileSize?.height ?? rowsPerStrip }

    /// Little or big-endian TIFF, classic or BigTIFF.
    public static func hasSignature(_ start: [UInt8]) -> Bool {
        start.count >= 4 && ((start[0] == 0x49 && start[1] == 0x49 && (start[2] == 42 || start[2] == 43) && start[3] == 0)
            || (start[0] == 0x4D && start[1] == 0x4D && start[2] == 0 && (start[3] == 42 || start[3] == 43)))
    }

    /// Columns `x ..< x + regionWidth`, rows `y ..< y + regionHeight`.
    public func readRegion(x: Int, y: Int, width regionWidth: Int, height regionHeight: Int) throws -> [UInt8] {
        if oldJPEG { return try readRegionAsRGBA(x: x, y: y, width: regionWidth, height: regionHeight) }
        let pixelBytes = channels * bytesPerSample
        var region = [UInt8](repeating: 0, count: regionWidth * regionHeight * pixelBytes)
        let (blockWidth, blockHeight) = tileSize ?? (width, rowsPerStrip)
        let blockBytes = workingBytes
        // One block per plane: samples stored apart are read apart and interleaved row by row.
        let blocks = (0..<planes).map { _ in UnsafeMutableRawPointer.allocate(byteCount: max(1, blockBytes), alignment: 16) }
        defer { blocks.forEach { $0.deallocate() } }
        let samplesPerBlockPixel = planes == 1 ? samplesPerPixel : 1
        let rowBytes = (blockWidth * samplesPerBlockPixel * bits + 7) / 8
        let sampleBytes = bits / 8
        let interleaved = UnsafeMutableRawPointer.allocate(byteCount: max(1, blockWidth * samplesPerPixel * max(1, sampleBytes)), alignment: 16)
        defer { interleaved.deallocate() }
        for blockY in stride(from: y / blockHeight * blockHeight, to: y + regionHeight, by: blockHeight) {
            for blockX in stride(from: x / blockWidth * blockWidth, to: x + regionWidth, by: blockWidth) {
                let rowsInBlock = min(blockHeight, height - blockY)
                let needed = (rowsInBlock - 1) * rowBytes + min(rowBytes, (min(blockWidth, width - blockX) * samplesPerBlockPixel * bits + 7) / 8)
                for plane in 0..<planes {
                    source.lastError = nil
                    let read: tmsize_t
                    if tileSize != nil {
                        let index = TIFFComputeTile(tiff, UInt32(blockX), UInt32(blockY), 0, UInt16(plane))
                        try checkStoredSize(tile: index)
                        read = TIFFReadEncodedTile(tiff, index, blocks[plane], tmsize_t(blockBytes))
                    } else {
                        let index = TIFFComputeStrip(tiff, UInt32(blockY), UInt16(plane))
                        try checkStoredSize(strip: index, rows: rowsInBlock)
                        read = TIFFReadEncodedStrip(tiff, index, blocks[plane], tmsize_t(blockBytes))
                    }
                    // An error libtiff reports is a wrong picture even where it hands back bytes.
                    guard read >= 0, Int(read) >= needed, source.lastError == nil else {
                        throw TIFFError.library(message: source.lastError ?? LibraryMessages.take() ?? "a strip or tile could not be read")
                    }
                }
                let fromRow = max(y, blockY), toRow = min(y + regionHeight, blockY + rowsInBlock)
                let fromColumn = max(x, blockX), toColumn = min(x + regionWidth, blockX + blockWidth, width)
                let count = toColumn - fromColumn
                region.withUnsafeMutableBytes { target in
                    for row in fromRow..<toRow {
                        let targetRow = target.baseAddress! + ((row - y) * regionWidth + (fromColumn - x)) * pixelBytes
                        if planes == 1 {
                            convert(row: UnsafeRawPointer(blocks[0]) + (row - blockY) * rowBytes, from: fromColumn - blockX, count: count, into: targetRow)
                            continue
                        }
                        if bits % 8 != 0 {
                            // Samples that are no whole bytes: each taken from its plane's row by its bit position.
                            let planeRows = blocks.map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) + (row - blockY) * rowBytes }
                            let start = fromColumn - blockX, planes = self.planes, bits = self.bits
                            convertSampleBySample(count: count, into: targetRow) { index in
                                Self.packedSample(planeRows[index % planes], start + index / planes, bits: bits)
                            }
                            continue
                        }
                        for column in 0..<count {
                            for plane in 0..<planes {
                                let from = blocks[plane] + (row - blockY) * rowBytes + (fromColumn - blockX + column) * sampleBytes
                                (interleaved + (column * planes + plane) * sampleBytes).copyMemory(from: from, byteCount: sampleBytes)
                            }
                        }
                        convert(row: UnsafeRawPointer(interleaved), from: 0, count: count, into: targetRow)
                    }
                }
            }
        }
        return region
    }

    /// An uncompressed strip must hold its rows: libtiff reads a short one on into whatever the
    /// file holds after it (the next strips, another plane), without a word. A compressed one
    /// says so itself, as its decoder runs out of data.
    private func checkStoredSize(strip index: UInt32, rows: Int) throws {
        guard compression == Int(COMPRESSION_NONE) else { return }
        let stored = TIFFGetStrileByteCount(tiff, index)
        let rowBytes = TIFFVStripSize64(tiff, 1)
        let needed = UInt64(rows) * rowBytes
        guard stored >= needed else {
            throw TIFFError.stripTooShort(index: Int(index), bytes: stored, rows: rows, rowBytes: rowBytes, rowsPerStrip: statedRowsPerStrip)
        }
    }

    /// The same for an uncompressed tile, which is always whole (the picture's edge padded).
    private func checkStoredSize(tile index: UInt32) throws {
        guard compression == Int(COMPRESSION_NONE), let tileSize else { return }
        let stored = TIFFGetStrileByteCount(tiff, index)
        let needed = TIFFTileSize64(tiff)
        guard stored >= needed else {
            throw TIFFError.tileTooShort(index: Int(index), bytes: stored, width: tileSize.width, height: tileSize.height, needed: needed)
        }
    }

    /// `count` pixels of a stored row from column `first`, as output pixels.
    private func convert(row: UnsafeRawPointer, from first: Int, count: Int, into target: UnsafeMutableRawPointer) {
        let plain = photometric != Int(PHOTOMETRIC_PALETTE) && photometric != Int(PHOTOMETRIC_MINISWHITE)
            && !associatedAlpha && samplesPerPixel == channels
        if plain && bits == 8 {
            target.copyMemory(from: row + first * channels, byteCount: count * channels)
            return
        }
        if plain && bits == 16 {
            let source = row + first * channels * 2
            let out = target.assumingMemoryBound(to: UInt16.self)
            for index in 0..<(count * channels) {
                out[index] = source.loadUnaligned(fromByteOffset: 2 * index, as: UInt16.self).bigEndian
            }
            return
        }
        let bytes = row.assumingMemoryBound(to: UInt8.self)
        let bits = self.bits, offset = first * samplesPerPixel
        // libtiff hands 16-bit samples over in the machine's order; narrower ones stay packed as stored.
        convertSampleBySample(count: count, into: target) { index in
            bits == 16 ? Int(row.loadUnaligned(fromByteOffset: 2 * (offset + index), as: UInt16.self))
                       : Self.packedSample(bytes, offset + index, bits: bits)
        }
    }

    /// The sample at `index` of samples `bits` wide packed most significant bit first, as TIFF
    /// packs every depth that is not 16 bits (a 12-bit pair in 3 bytes, a 10-bit sample across 2).
    static func packedSample(_ bytes: UnsafePointer<UInt8>, _ index: Int, bits: Int) -> Int {
        let bit = index * bits
        let first = bit >> 3, shift = bit & 7
        let span = (shift + bits + 7) >> 3
        var gathered = 0
        for offset in 0..<span { gathered = gathered << 8 | Int(bytes[first + offset]) }
        return gathered >> (span * 8 - shift - bits) & ((1 << bits) - 1)
    }

    /// The general case: sub-byte and 10 to 14-bit samples, palettes, min-is-white, associated
    /// alpha, extra samples. `sample` gives the stored samples of the `count` pixels in order.
    private func convertSampleBySample(count: Int, into target: UnsafeMutableRawPointer, sample: (Int) -> Int) {
        let out = target.assumingMemoryBound(to: UInt8.self)
        let bits = self.bits, maximum = (1 << bits) - 1
        let wide = bytesPerSample == 2
        let hasAlpha = channels == 2 || channels == 4
        let colours = hasAlpha ? channels - 1 : channels
        let isPalette = photometric == Int(PHOTOMETRIC_PALETTE), isInverted = photometric == Int(PHOTOMETRIC_MINISWHITE)
        let top = wide ? 65535 : 255
        /// A sample at the output's depth, so that inversion and alpha work in one range: fewer than
        /// 8 bits scaled to 8, 10 to 14 bits widened to 16 by repeating the top bits below (the
        /// largest value becomes 65535, 0 stays 0), as the HEIF path widens 10 and 12-bit samples.
        func scaled(_ value: Int) -> Int {
            switch bits {
            case 8, 16: return value
            case ..<8: return value * 255 / maximum
            default: return value << (16 - bits) | value >> (2 * bits - 16)
            }
        }
        var at = 0
        func put(_ value: Int) {
            if wide {
                out[at] = UInt8(value >> 8)
                out[at + 1] = UInt8(value & 0xFF)
                at += 2
            } else {
                out[at] = UInt8(value)
                at += 1
            }
        }
        for pixel in 0..<count {
            let base = pixel * samplesPerPixel
            if isPalette {
                let index = sample(base)
                // 16-bit colour map entries to 8 bits as libtiff scales them (v * 255 / 65535, truncated).
                for channel in 0..<3 { put(Int(palette[channel][index]) * 255 / 65535) }
                continue
            }
            let alpha = hasAlpha ? scaled(sample(base + colours)) : top
            for channel in 0..<colours {
                var value = scaled(sample(base + channel))
                if isInverted { value = top - value }
                if associatedAlpha { value = alpha == 0 ? 0 : min(top, (value * top + alpha / 2) / alpha) }
                put(value)
            }
            if hasAlpha { put(alpha) }
        }
    }
}

extension TIFFDecoder {
    /// An old-style JPEG region through libtiff's RGBA interface, a band of strips (or a row of
    /// tiles) at a time across the picture. The rows come as stored: the crop applies the
    /// Orientation tag, so libtiff must not (asked for the file's own orientation, it flips nothing).
    private func readRegionAsRGBA(x: Int, y: Int, width regionWidth: Int, height regionHeight: Int) throws -> [UInt8] {
        var image = TIFFRGBAImage()
        var message = [CChar](repeating: 0, count: 1024)
        source.lastError = nil
        guard TIFFRGBAImageBegin(&image, tiff, 1, &message) != 0 else { throw TIFFError.library(message: TIFFDecoder.text(message)) }
        defer { TIFFRGBAImageEnd(&image) }
        image.req_orientation = image.orientation
        let band = bandHeight
        var raster = [UInt32](repeating: 0, count: width * band)
        var region = [UInt8](repeating: 0, count: regionWidth * regionHeight * channels)
        for bandY in stride(from: y / band * band, to: y + regionHeight, by: band) {
            let rows = min(band, height - bandY)
            image.row_offset = Int32(bandY)
            image.col_offset = 0
            guard TIFFRGBAImageGet(&image, &raster, UInt32(width), UInt32(rows)) != 0, source.lastError == nil else {
                throw TIFFError.library(message: source.lastError ?? LibraryMessages.take() ?? "old-style JPEG rows \(bandY) to \(bandY + rows - 1) could not be read")
            }
            for row in max(y, bandY)..<min(y + regionHeight, bandY + rows) {
                var at = (row - y) * regionWidth * channels
                for column in x..<(x + regionWidth) {
                    // Red in the low byte, then green and blue (libtiff's ABGR).
                    let pixel = raster[(row - bandY) * width + column]
                    for channel in 0..<channels {
                        region[at] = UInt8(truncatingIfNeeded: pixel >> (8 * channel))
                        at += 1
                    }
                }
            }
        }
        return region
    }
}

/// The open input as libtiff's client: reads by pread at a position of its own; errors kept.
private final class TIFFSource {
    let file: InputFile
    var position: UInt64 = 0
    var lastError: String?

    init(file: InputFile) {
        self.file = file
    }

    static func from(_ handle: thandle_t?) -> TIFFSource {
        Unmanaged<TIFFSource>.fromOpaque(handle!).takeUnretainedValue()
    }

    static let read: TIFFReadWriteProc = { handle, buffer, size in
        let source = TIFFSource.from(handle)
        guard let buffer, size >= 0, let got = try? source.file.read(at: Int(source.position), into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(size))) else { return -1 }
        source.position += UInt64(got)
        return tmsize_t(got)
    }
    static let write: TIFFReadWriteProc = { _, _, _ in -1 }
    static let seek: TIFFSeekProc = { handle, offset, whence in
        let source = TIFFSource.from(handle)
        let size = UInt64(source.file.size ?? 0)
        switch whence {
        case SEEK_SET: source.position = offset
        case SEEK_CUR: source.position &+= offset
        case SEEK_END: source.position = size &+ offset
        default: return UInt64.max
        }
        return source.position
    }
    static let close: TIFFCloseProc = { _ in 0 }
    static let size: TIFFSizeProc = { handle in UInt64(TIFFSource.from(handle).file.size ?? 0) }
    static let map: TIFFMapFileProc = { _, _, _ in 0 }
    static let unmap: TIFFUnmapFileProc = { _, _, _ in }

    static let errorHandler: TIFFErrorHandlerExtR = { _, userData, module, format, arguments in
        let source = TIFFSource.from(userData)
        var message = [CChar](repeating: 0, count: 512)
        if let format, let arguments { _ = vsnprintf(&message, message.count, format, arguments) }
        // libtiff puts the name given to TIFFClientOpenExt before some messages: the file is named already.
        var text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("tiff: ") { text.removeFirst(6) }
        if source.lastError == nil { source.lastError = text }
        return 1
    }
    // Warnings (unknown tags, and the like) are not errors: libtiff goes on, and so does the crop.
    static let warningHandler: TIFFErrorHandlerExtR = { _, _, _, _, _ in 1 }
}

/// The libtiff the tool runs with.
public enum TIFFLibrary {
    public static var version: LibraryVersion {
        let text = String(cString: TIFFGetVersion())
        let number = text.split(separator: "\n").first.flatMap { $0.split(separator: " ").last }.map(String.init) ?? text
        return LibraryVersion(name: "libtiff", version: number)
    }
}
