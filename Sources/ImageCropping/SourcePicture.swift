import ImageCodecs
import Imaging
import JPEGCodec
import FileIO
import PNGCodec
import TIFFCodec
import WebPCodec

/// A picture file opened for cropping: its stored size, orientation and colour known from the
/// header, its pixels decoded only for the region asked for.
protocol SourcePicture {
    var storedWidth: Int { get }
    var storedHeight: Int { get }
    var orientation: Orientation { get }
    var color: ColorDescription? { get }
    /// The picture's EXIF block (TIFF-headed), to carry to the crop.
    var exif: [UInt8]? { get }
    /// The picture's XMP packet, to carry to the crop.
    var xmp: [UInt8]? { get }
    /// A JPEG's chroma sampling, which a JPEG crop keeps.
    var subsampling: ChromaSubsampling? { get }
    /// Whether the stored pixels can be written with the orientation in EXIF (`--keep-orientation`):
    /// not for HEIF, whose orientation is not EXIF's.
    var keepsStoredPixels: Bool { get }
    /// Problems met that did not stop the crop.
    var warnings: [String] { get }
    /// Bytes of memory decoding any region needs besides the region (rows of the whole width, or
    /// the whole picture where the format needs it).
    var workingBytes: Int { get }
    /// Bytes a decoded pixel takes: what a region of the picture costs.
    var bytesPerPixel: Int { get }
    func pixels(of storedRect: PixelRect) throws -> PixelBuffer
}

extension SourcePicture {
    /// At most four channels of two bytes, where the format does not say less before decoding.
    var bytesPerPixel: Int { 8 }
}

enum SourcePictures {
    /// Reads a PNG, a JPEG, a HEIF (HEIC, AVIF), a WebP or a TIFF, told apart by their signatures, not by the name, from a regular file.
    static func open(file: InputFile, maxPixels: Int, maxMemory: Int = DecodeLimits.defaultMaxMemory, threads: Int = 0) throws -> SourcePicture {
        var start = [UInt8](repeating: 0, count: 12)
        let got = try start.withUnsafeMutableBytes { try file.read(at: 0, into: $0) }
        start = Array(start.prefix(got))
        // The format list tells the format by its signature; each has its decoder here.
        switch PictureFormat.identify(start)?.name {
        case .png: return try PNGPicture(file: file, maxPixels: maxPixels, maxMemory: maxMemory)
        case .jpeg: return try JPEGPicture(file: file, maxPixels: maxPixels)
        case .heif: return try HEIFPicture(file: file, maxPixels: maxPixels, threads: threads)
        case .webp: return try WebPPicture(file: file, maxPixels: maxPixels)
        case .tiff: return try TIFFPicture(file: file, maxPixels: maxPixels)
        case nil: throw CropError.notAPicture
        }
    }

    /// Throws when a stream's first bytes are no picture this tool reads (see `InputFile.randomAccess`).
    static func recognise(_ start: UnsafeRawBufferPointer) throws {
        if PictureFormat.identify(Array(start.prefix(12))) == nil { throw CropError.notAPicture }
    }

    /// The orientation the EXIF block states, else the XMP packet (as Pillow reads them): 1 when
    /// neither does, a warning when the EXIF block is malformed.
    static func orientation(exif: [UInt8]?, xmp: [UInt8]?, warnings: inout [String]) -> Orientation {
        if let exif {
            do {
                if let stated = try ExifOrientation.read(tiff: exif) { return stated }
            } catch {
                warnings.append("\(error); orientation 1 assumed")
                return .identity
            }
        }
        return xmp.flatMap(XMPOrientation.read(xmp:)) ?? .identity
    }

    static func checkPixelLimit(width: Int, height: Int, maxPixels: Int) throws {
        if width.multipliedReportingOverflow(by: height).overflow || width * height > maxPixels {
            throw CropError.tooManyPixels(width: width, height: height, limit: maxPixels)
        }
    }
}

struct PNGPicture: SourcePicture {
    let storedWidth: Int
    let storedHeight: Int
    let orientation: Orientation
    let warnings: [String]
    private let decoder: PNGDecoder
    /// The CRCs of the whole file, checked on another core while the rows are decoded.
    private let checksums: BackgroundCheck
    var color: ColorDescription? { decoder.color.isEmpty ? nil : decoder.color }
    var workingBytes: Int { decoder.workingBytes }
    var bytesPerPixel: Int { decoder.layout.bytesPerPixel }
    let exif: [UInt8]?
    let xmp: [UInt8]?
    var subsampling: ChromaSubsampling? { nil }
    var keepsStoredPixels: Bool { true }

    init(file: InputFile, maxPixels: Int, maxMemory: Int) throws {
        // The chunk walk finds the size and an eXIf chunk after the image data before anything is decoded.
        let chunks = try PNGChunks.scan(file: file)
        try SourcePictures.checkPixelLimit(width: chunks.width, height: chunks.height, maxPixels: maxPixels)
        if chunks.workingBytes > maxMemory {
            throw CropError.tooMuchMemory(needed: chunks.workingBytes, limit: maxMemory, width: chunks.width, height: chunks.height)
        }
        var warnings: [String] = []
        // eXIf first; else what ImageMagick and XMP write in text chunks, as Pillow reads them.
        exif = chunks.exif ?? chunks.rawProfileExif
        xmp = chunks.xmp
        orientation = SourcePictures.orientation(exif: exif, xmp: xmp, warnings: &warnings)
        self.warnings = warnings
        checksums = BackgroundCheck { try chunks.verifyChecksums(file: file) }
        decoder = try PNGDecoder(file: file, checksumsVerifiedElsewhere: true)
        storedWidth = decoder.width
        storedHeight = decoder.height
    }

    func pixels(of rect: PixelRect) throws -> PixelBuffer {
        let decoded = Result { try decoder.readRegion(x: rect.x, y: rect.y, columns: rect.width, rows: rect.height) }
        // A CRC error explains a decoding error better than the decoding error does.
        try checksums.wait()
        let bytes = try decoded.get()
        return PixelBuffer(width: rect.width, height: rect.height, channels: decoder.layout.channels.count,
                           bytesPerSample: decoder.layout.bitDepth / 8, bytes: bytes)
    }
}

struct JPEGPicture: SourcePicture {
    let storedWidth: Int
    let storedHeight: Int
    let orientation: Orientation
    let warnings: [String]
    let color: ColorDescription?
    let decoder: JPEGDecoder
    var workingBytes: Int { decoder.workingBytes }
    var bytesPerPixel: Int { decoder.channels }
    var exif: [UInt8]? { decoder.exif }
    var xmp: [UInt8]? { decoder.xmp }
    var subsampling: ChromaSubsampling? { decoder.subsampling }
    var keepsStoredPixels: Bool { true }

    init(file: InputFile, maxPixels: Int) throws {
        decoder = try JPEGDecoder(file: file)
        try SourcePictures.checkPixelLimit(width: decoder.width, height: decoder.height, maxPixels: maxPixels)
        storedWidth = decoder.width
        storedHeight = decoder.height
        var warnings: [String] = []
        orientation = SourcePictures.orientation(exif: decoder.exif, xmp: decoder.xmp, warnings: &warnings)
        if let note = decoder.iccNote { warnings.append(note) }
        self.warnings = warnings
        color = decoder.iccProfile.map { ColorDescription(iccProfile: $0) }
    }

    func pixels(of rect: PixelRect) throws -> PixelBuffer {
        let bytes = try decoder.readRegion(x: rect.x, y: rect.y, columns: rect.width, rows: rect.height)
        return PixelBuffer(width: rect.width, height: rect.height, channels: decoder.channels, bytes: bytes)
    }
}
