import FileIO
import Imaging
import JPEGCodec
import PNGCodec
import WebPCodec

/// A WebP picture: orientation from its EXIF chunk (else XMP), its ICC profile, and only the
/// rect's rows and columns converted (libwebp's cropping). An animation gives its first frame.
struct WebPPicture: SourcePicture {
    let storedWidth: Int
    let storedHeight: Int
    let orientation: Orientation
    let warnings: [String]
    let color: ColorDescription?
    var exif: [UInt8]? { decoder.exif }
    var xmp: [UInt8]? { decoder.xmp }
    var subsampling: ChromaSubsampling? { nil }
    var keepsStoredPixels: Bool { true }
    let workingBytes: Int
    private let decoder: WebPDecoder

    init(file: InputFile, maxPixels: Int) throws {
        // libwebp decodes from memory; a WebP holds at most 16383x16383 pixels, so its file is small beside them.
        decoder = try WebPDecoder(bytes: try file.contents())
        try SourcePictures.checkPixelLimit(width: decoder.width, height: decoder.height, maxPixels: maxPixels)
        storedWidth = decoder.width
        storedHeight = decoder.height
        var warnings: [String] = []
        orientation = SourcePictures.orientation(exif: decoder.exif, xmp: decoder.xmp, warnings: &warnings)
        if decoder.isAnimated { warnings.append("animated WebP: its first frame was cropped") }
        self.warnings = warnings
        color = decoder.iccProfile.map { ColorDescription(iccProfile: $0) }
        // The file, and libwebp's rows of the whole width (or the whole canvas of an animation).
        workingBytes = (file.size ?? 0) + (decoder.isAnimated ? storedWidth * storedHeight * 8 : storedWidth * 64 * 4)
    }

    func pixels(of rect: PixelRect) throws -> PixelBuffer {
        let bytes = try decoder.decode(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        return PixelBuffer(width: rect.width, height: rect.height, channels: decoder.hasAlpha ? 4 : 3, bytes: bytes)
    }
}
