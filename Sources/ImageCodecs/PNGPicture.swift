import WorkerPool
import FileIO
import Imaging
import JPEGCodec
import PNGCodec

/// A PNG picture: orientation from its eXIf chunk (else ImageMagick's or XMP's text chunks), rows
/// decoded as far down as the rect reaches, the CRCs checked on another core meanwhile.
public struct PNGPicture: SourcePicture {
    public let storedWidth: Int
    public let storedHeight: Int
    public let orientation: Orientation
    public let warnings: [String]
    private let decoder: PNGDecoder
    /// The CRCs of the whole file, checked on another core while the rows are decoded.
    private let checksums: JoinableTask<Void>?
    public let facts: PictureFacts
    public var color: ColorDescription? { decoder.color.isEmpty ? nil : decoder.color }
    public var workingBytes: Int { decoder.workingBytes }
    public var bytesPerPixel: Int { decoder.layout.bytesPerPixel }
    public let exif: [UInt8]?
    public let xmp: [UInt8]?
    public var subsampling: ChromaSubsampling? { nil }
    public var keepsStoredPixels: Bool { true }

    init(file: InputFile, opening: PictureOpening) throws {
        // The chunk walk finds the size and an eXIf chunk after the image data before anything is decoded.
        let chunks = try PNGChunks.scan(file: file)
        try opening.checkPixels(width: chunks.width, height: chunks.height)
        if chunks.workingBytes > opening.maxMemory {
            throw DecodeLimitError.tooMuchMemory(needed: chunks.workingBytes, limit: opening.maxMemory, width: chunks.width, height: chunks.height)
        }
        var warnings: [String] = []
        // eXIf first; else what ImageMagick and XMP write in text chunks, as Pillow reads them.
        exif = chunks.exif ?? chunks.rawProfileExif
        xmp = chunks.xmp
        orientation = Orientation.stated(exif: exif, xmp: xmp, warnings: &warnings)
        self.warnings = warnings
        checksums = opening.readsPixels ? JoinableTask { try chunks.verifyChecksums(file: file) } : nil
        facts = PictureFacts(format: "png", mime: chunks.animationFrames == nil ? "image/png" : "image/apng", codec: "deflate",
                             bitDepth: chunks.bitDepth, hasAlpha: chunks.colourType & 4 != 0 || chunks.hasTransparencyChunk,
                             frames: max(1, chunks.animationFrames ?? 1),
                             embeddedThumbnail: exif.flatMap { ExifBlock($0)?.thumbnailSize })
        decoder = try PNGDecoder(file: file, checksumsVerifiedElsewhere: true)
        storedWidth = decoder.width
        storedHeight = decoder.height
    }

    public var streamsRows: Bool { !decoder.isInterlaced }

    /// Bands of rows as they are inflated: memory follows the width, not the picture's size.
    public func readRows(at size: (width: Int, height: Int), into band: (PixelBuffer) -> Void) throws {
        precondition(size == (storedWidth, storedHeight))
        let channels = decoder.layout.channels.count, bytesPerSample = decoder.layout.bitDepth / 8
        let decoded = Result {
            // An interlaced picture is decoded whole whatever is asked (every pass covers all of it).
            let bandRows = decoder.isInterlaced ? storedHeight : max(1, min(storedHeight, (1 << 20) / max(1, storedWidth * decoder.layout.bytesPerPixel)))
            var row = 0
            while row < storedHeight {
                let rows = min(bandRows, storedHeight - row)
                let bytes = try decoder.readRegion(x: 0, y: row, columns: storedWidth, rows: rows)
                band(PixelBuffer(width: storedWidth, height: rows, channels: channels, bytesPerSample: bytesPerSample, bytes: bytes))
                row += rows
            }
        }
        try checksums?.value()
        try decoded.get()
    }

    public func pixels(of rect: PixelRect) throws -> PixelBuffer {
        let decoded = Result { try decoder.readRegion(x: rect.x, y: rect.y, columns: rect.width, rows: rect.height) }
        // A CRC error explains a decoding error better than the decoding error does.
        try checksums?.value()
        let bytes = try decoded.get()
        return PixelBuffer(width: rect.width, height: rect.height, channels: decoder.layout.channels.count,
                           bytesPerSample: decoder.layout.bitDepth / 8, bytes: bytes)
    }
}
