import FileIO
import Imaging
import JPEGCodec
import PNGCodec
import TIFFCodec

/// A TIFF picture: its Orientation tag (274, all eight), ICC profile and XMP; only the strips or
/// tiles the rect meets are read.
public struct TIFFPicture: SourcePicture {
    public let storedWidth: Int
    public let storedHeight: Int
    public let orientation: Orientation
    public let warnings: [String]
    public let color: ColorDescription?
    /// The EXIF of a TIFF is a directory of the file itself, not a block to carry: not kept.
    public var exif: [UInt8]? { nil }
    public var xmp: [UInt8]? { decoder.xmp }
    public var subsampling: ChromaSubsampling? { nil }
    public var keepsStoredPixels: Bool { true }
    public var workingBytes: Int { decoder.workingBytes }
    public var facts: PictureFacts {
        var facts = PictureFacts(format: "tiff", mime: "image/tiff", codec: decoder.compressionName, bitDepth: decoder.storedBitsPerSample,
                                 hasAlpha: decoder.channels == 2 || decoder.channels == 4, frames: decoder.pageCount())
        // The file is its own EXIF block: its directories, wherever they lie, are read out of it.
        facts.metadataDirectories = TIFFMetadata.block(of: file)
        return facts
    }
    private let decoder: TIFFDecoder
    private let file: InputFile
    /// A pyramid's reduced pages, of the first page's shape.
    private let reducedPages: [(directory: Int, width: Int, height: Int)]

    init(file: InputFile, opening: PictureOpening) throws {
        self.file = file
        decoder = try TIFFDecoder(file: file)
        try opening.checkPixels(width: decoder.width, height: decoder.height)
        storedWidth = decoder.width
        storedHeight = decoder.height
        orientation = Orientation(rawValue: decoder.orientation) ?? .identity
        color = decoder.iccProfile.map { ColorDescription(iccProfile: $0) }
        warnings = []
        reducedPages = Self.pyramid(of: decoder.reducedPages(), width: storedWidth, height: storedHeight)
    }

    /// The reduced pages that make a pyramid under a `width` x `height` picture: each half the one
    /// before (rounded either way), as libvips's thumbnail takes them; none where the first is
    /// not. A scanner's quarter-size preview of a page is no level of it: renditions made from one
    /// were 18-21 dB from the page (vips ignores it, 40.5 dB).
    static func pyramid(of pages: [(directory: Int, width: Int, height: Int)], width: Int, height: Int)
        -> [(directory: Int, width: Int, height: Int)] {
        var levels: [(directory: Int, width: Int, height: Int)] = []
        var above = (width: width, height: height)
        for page in pages {
            let halves = { (side: Int, half: Int) in half == side / 2 || half == (side + 1) / 2 }
            guard halves(above.width, page.width), halves(above.height, page.height), page.width > 0, page.height > 0 else { break }
            levels.append(page)
            above = (page.width, page.height)
        }
        return levels
    }

    /// The smallest reduced page of a pyramid at least this large (as libvips's tiffload picks its
    /// `page`); else the picture.
    public func reducedSize(atLeast width: Int, _ height: Int) -> (width: Int, height: Int) {
        reducedPages.filter { $0.width >= width && $0.height >= height }.min { $0.width < $1.width }.map { ($0.width, $0.height) }
            ?? (storedWidth, storedHeight)
    }

    public var streamsRows: Bool { true }

    /// Bands of whole strips (or rows of tiles), each read once: memory follows the width.
    public func readRows(at size: (width: Int, height: Int), into band: (PixelBuffer) -> Void) throws {
        if size != (storedWidth, storedHeight), let page = reducedPages.first(where: { ($0.width, $0.height) == size }) {
            try Self.readRows(of: try TIFFDecoder(file: file, directory: page.directory), into: band)
            return
        }
        precondition(size == (storedWidth, storedHeight))
        try Self.readRows(of: decoder, into: band)
    }

    private static func readRows(of decoder: TIFFDecoder, into band: (PixelBuffer) -> Void) throws {
        let rowBytes = max(1, decoder.width * decoder.channels * decoder.bytesPerSample)
        let blocks = max(1, (1 << 20) / (rowBytes * decoder.blockRows))
        let bandRows = decoder.blockRows * blocks
        var row = 0
        while row < decoder.height {
            let rows = min(bandRows, decoder.height - row)
            let bytes = try decoder.readRegion(x: 0, y: row, width: decoder.width, height: rows)
            band(PixelBuffer(width: decoder.width, height: rows, channels: decoder.channels, bytesPerSample: decoder.bytesPerSample, bytes: bytes))
            row += rows
        }
    }

    public func pixels(of rect: PixelRect) throws -> PixelBuffer {
        let bytes = try decoder.readRegion(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        return PixelBuffer(width: rect.width, height: rect.height, channels: decoder.channels,
                           bytesPerSample: decoder.bytesPerSample, bytes: bytes)
    }
}
