import FileIO
import Imaging
import JPEGCodec
import WorkerPool

/// A JPEG picture: orientation from EXIF (else XMP), its ICC profile, and only the rect's MCU rows
/// and columns decoded (libjpeg-turbo's cropped scanlines).
public struct JPEGPicture: SourcePicture {
    public let storedWidth: Int
    public let storedHeight: Int
    public let orientation: Orientation
    public let warnings: [String]
    public let color: ColorDescription?
    public let decoder: JPEGDecoder
    public var workingBytes: Int { decoder.workingBytes }
    public var bytesPerPixel: Int { decoder.channels }
    public var exif: [UInt8]? { decoder.exif }
    public var xmp: [UInt8]? { decoder.xmp }
    public var subsampling: ChromaSubsampling? { decoder.subsampling }
    public var keepsStoredPixels: Bool { true }
    public var facts: PictureFacts {
        PictureFacts(format: "jpeg", mime: "image/jpeg", codec: "jpeg", bitDepth: 8, hasAlpha: false,
                     embeddedThumbnail: exif.flatMap { ExifBlock($0)?.thumbnailSize })
    }

    init(file: InputFile, opening: PictureOpening) throws {
        decoder = try JPEGDecoder(file: file)
        try opening.checkPixels(width: decoder.width, height: decoder.height)
        storedWidth = decoder.width
        storedHeight = decoder.height
        var warnings: [String] = []
        orientation = Orientation.stated(exif: decoder.exif, xmp: decoder.xmp, warnings: &warnings)
        if let note = decoder.iccNote { warnings.append(note) }
        self.warnings = warnings
        color = decoder.iccProfile.map { ColorDescription(iccProfile: $0) }
    }

    public func reducedSize(atLeast width: Int, _ height: Int) -> (width: Int, height: Int) {
        decoder.scaledSize(denominator: denominator(atLeast: width, height))
    }

    /// The largest of libjpeg-turbo's DCT scalings that keeps the picture at least twice this large:
    /// the scaled inverse DCT aliases, and a Lanczos reduction of 2 or more after it hides that (as
    /// libvips leaves at least 2 for its resize; 1.5 measured 6 dB worse at 2048 of 6000 pixels).
    private func denominator(atLeast width: Int, _ height: Int) -> Int {
        [8, 4, 2].first {
            let size = decoder.scaledSize(denominator: $0)
            return size.width >= 2 * width && size.height >= 2 * height
        } ?? 1
    }

    public var streamsRows: Bool { true }

    public func readRows(at size: (width: Int, height: Int), into band: (PixelBuffer) -> Void) throws {
        let denominator = [1, 2, 4, 8].first { decoder.scaledSize(denominator: $0) == size }
        guard let denominator else { preconditionFailure("no scaling of \(storedWidth)x\(storedHeight) gives \(size)") }
        let channels = decoder.channels
        try decoder.readScaled(denominator: denominator, splitScan: splitScan(denominator: denominator)) { bytes, rows in
            band(PixelBuffer(width: size.width, height: rows, channels: channels, bytes: Array(bytes)))
        }
    }

    public func workingBytes(reducedTo size: (width: Int, height: Int)) -> Int {
        let denominator = [1, 2, 4, 8].first { decoder.scaledSize(denominator: $0) == size } ?? 1
        return workingBytes + (splitScan(denominator: denominator)?.reservedBytes ?? 0)
    }

    /// At 1/8 scale the scan's Huffman decoding is nearly all the work, and with a second core it
    /// is split over both (1.3x to 1.9x vips on a 24 MP camera JPEG). At 1/4 and larger the
    /// inverse DCT, upsampling and reduction weigh as much, and splitting measured no faster.
    private func splitScan(denominator: Int) -> SplitScan? {
        denominator == 8 && WorkerThreads.cores > 1 ? SplitScan() : nil
    }

    public func pixels(of rect: PixelRect) throws -> PixelBuffer {
        let bytes = try decoder.readRegion(x: rect.x, y: rect.y, columns: rect.width, rows: rect.height)
        return PixelBuffer(width: rect.width, height: rect.height, channels: decoder.channels, bytes: bytes)
    }
}
