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
    private let decoder: TIFFDecoder

    init(file: InputFile, opening: PictureOpening) throws {
        decoder = try TIFFDecoder(file: file)
        try opening.checkPixels(width: decoder.width, height: decoder.height)
        storedWidth = decoder.width
        storedHeight = decoder.height
        orientation = Orientation(rawValue: decoder.orientation) ?? .identity
        color = decoder.iccProfile.map { ColorDescription(iccProfile: $0) }
        warnings = []
    }

    public var streamsRows: Bool { true }

    /// Bands of whole strips (or rows of tiles), each read once: memory follows the width.
    public func readRows(at size: (width: Int, height: Int), into band: (PixelBuffer) -> Void) throws {
        precondition(size == (storedWidth, storedHeight))
        let rowBytes = max(1, storedWidth * decoder.channels * decoder.bytesPerSample)
        let blocks = max(1, (1 << 20) / (rowBytes * decoder.blockRows))
        let bandRows = decoder.blockRows * blocks
        var row = 0
        while row < storedHeight {
            let rows = min(bandRows, storedHeight - row)
            band(try pixels(of: PixelRect(x: 0, y: row, width: storedWidth, height: rows)))
            row += rows
        }
    }

    public func pixels(of rect: PixelRect) throws -> PixelBuffer {
        let bytes = try decoder.readRegion(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        return PixelBuffer(width: rect.width, height: rect.height, channels: decoder.channels,
                           bytesPerSample: decoder.bytesPerSample, bytes: bytes)
    }
}
