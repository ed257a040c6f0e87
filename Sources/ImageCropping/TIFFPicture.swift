import FileIO
import Imaging
import JPEGCodec
import PNGCodec
import TIFFCodec

/// A TIFF picture: its Orientation tag (274, all eight), ICC profile and XMP; only the strips or
/// tiles the rect meets are read.
struct TIFFPicture: SourcePicture {
    let storedWidth: Int
    let storedHeight: Int
    let orientation: Orientation
    let warnings: [String]
    let color: ColorDescription?
    /// The EXIF of a TIFF is a directory of the file itself, not a block to carry: not kept.
    var exif: [UInt8]? { nil }
    var xmp: [UInt8]? { decoder.xmp }
    var subsampling: ChromaSubsampling? { nil }
    var keepsStoredPixels: Bool { true }
    var workingBytes: Int { decoder.workingBytes }
    private let decoder: TIFFDecoder

    init(file: InputFile, maxPixels: Int) throws {
        decoder = try TIFFDecoder(file: file)
        try SourcePictures.checkPixelLimit(width: decoder.width, height: decoder.height, maxPixels: maxPixels)
        storedWidth = decoder.width
        storedHeight = decoder.height
        orientation = Orientation(rawValue: decoder.orientation) ?? .identity
        color = decoder.iccProfile.map { ColorDescription(iccProfile: $0) }
        warnings = []
    }

    func pixels(of rect: PixelRect) throws -> PixelBuffer {
        let bytes = try decoder.readRegion(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        return PixelBuffer(width: rect.width, height: rect.height, channels: decoder.channels,
                           bytesPerSample: decoder.bytesPerSample, bytes: bytes)
    }
}
