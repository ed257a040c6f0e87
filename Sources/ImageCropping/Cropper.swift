import ImageCodecs
import Imaging
import MediaIO
import PNGCodec

/// Where the rect of a crop is given.
public enum CropRect: Sendable, Equatable {
    /// In the picture as a person sees it (EXIF orientation applied).
    case displayed(FractionalRect)
    /// In a view of another size that shows the displayed picture.
    case inView(FractionalRect, ViewMapping)
    /// In the stored pixels, orientation ignored.
    case stored(FractionalRect)
}

public struct CropOptions: Sendable {
    public var rect: CropRect
    /// Crop the part of the rect inside the picture, instead of failing.
    public var clamps = false
    /// Write the stored pixels with the orientation in an eXIf chunk, instead of upright pixels.
    public var keepsOrientation = false
    /// Pictures with more pixels are refused from their header.
    public var maxPixels = CropOptions.defaultMaxPixels
    /// Crops that would take more memory to decode are refused before any allocation.
    public var maxMemory = CropOptions.defaultMaxMemory
    public var output = OutputPolicy(overwrite: false)
    public var format: ImageFormat = .png
    public var encoding = EncodingSettings()
    /// What of the picture's metadata is left out of the crop; the colour description always stays.
    public var strip: MetadataStrip = .none

    public static let defaultMaxPixels = 268_000_000
    public static let defaultMaxMemory = 1 << 30

    public init(rect: CropRect) {
        self.rect = rect
    }
}

/// What of a picture's metadata a crop leaves out.
public enum MetadataStrip: String, Sendable, CaseIterable {
    /// Keep EXIF where the output format can hold it.
    case none
    /// Leave out everything but the colour description (the orientation stays with --keep-orientation).
    case all
    /// Leave out the GPS position only: what an uploader wants before publishing a phone photo.
    case gps
}

/// What making one crop did.
public struct CropReport: Sendable {
    public let output: String
    public let orientation: Orientation
    /// The rect of stored pixels cropped.
    public let storedRect: PixelRect
    public let warnings: [String]
}

/// Crops PNG and JPEG pictures to a rect given as a person sees them.
public struct Cropper: Sendable {
    public let options: CropOptions

    public init(options: CropOptions) {
        self.options = options
    }

    public func crop(_ input: String, to output: String) throws -> CropReport {
        let (file, target) = try OutputGuard.open(input: input, output: output, policy: options.output)
        let picture = try SourcePictures.open(file: file, maxPixels: options.maxPixels)
        let orientation = picture.orientation
        let storedRect = try self.storedRect(of: picture)
        try checkMemory(picture, storedRect)
        let stored = try picture.pixels(of: storedRect)
        let encoder = ImageEncoders.encoder(for: options.format, settings: options.encoding)
        let shown = options.keepsOrientation ? orientation : .identity
        let pixels = options.keepsOrientation ? stored : stored.oriented(orientation)
        let exif = carriedExif(of: picture, orientation: shown, width: pixels.width, height: pixels.height)
        let left = try encoder.write(pixels, metadata: PictureMetadata(color: picture.color, exif: exif), to: target.descriptor)
        try target.commit()
        return CropReport(output: output, orientation: orientation, storedRect: storedRect, warnings: picture.warnings + left)
    }

    /// The picture's EXIF as the crop carries it: the orientation its pixels need, the crop's size,
    /// no thumbnail of the whole picture, GPS erased on request; nothing with `--strip all` but the
    /// orientation that `--keep-orientation` needs.
    func carriedExif(of picture: SourcePicture, orientation: Orientation, width: Int, height: Int) -> [UInt8]? {
        guard options.strip != .all, let source = picture.exif, var block = ExifBlock(source) else {
            return orientation == .identity ? nil : ExifOrientation.tiff(for: orientation)
        }
        block.setOrientation(orientation)
        block.setPixelSize(width: width, height: height)
        block.dropThumbnail()
        if options.strip == .gps { block.eraseGPS() }
        return block.bytes
    }

    /// The stored pixels to crop: the rect snapped outward where it is given, checked (or clamped)
    /// there, then mapped exactly.
    func storedRect(of picture: SourcePicture) throws -> PixelRect {
        let orientation = picture.orientation
        let displayed = orientation.displaySize(storedWidth: picture.storedWidth, storedHeight: picture.storedHeight)
        switch options.rect {
        case .stored(let rect):
            return try checked(rect.snappedOutward(), width: picture.storedWidth, height: picture.storedHeight, space: "stored")
        case .displayed(let rect):
            let inside = try checked(rect.snappedOutward(), width: displayed.width, height: displayed.height, space: "displayed")
            return orientation.storedRect(forDisplayed: inside, storedWidth: picture.storedWidth, storedHeight: picture.storedHeight)
        case .inView(let rect, let mapping):
            let pictureRect = mapping.pictureRect(forView: rect, pictureWidth: displayed.width, pictureHeight: displayed.height)
            let inside = try checked(pictureRect.snappedOutward(), width: displayed.width, height: displayed.height, space: "displayed")
            return orientation.storedRect(forDisplayed: inside, storedWidth: picture.storedWidth, storedHeight: picture.storedHeight)
        }
    }

    /// The decoder's own needs, the region, and its upright copy, against `--max-memory`.
    private func checkMemory(_ picture: SourcePicture, _ rect: PixelRect) throws {
        let samples = 4 * 2  // at most four channels of two bytes
        let (region, overflow) = rect.width.multipliedReportingOverflow(by: rect.height * samples)
        let needed = overflow ? Int.max : picture.workingBytes.addingReportingOverflow(2 * region).partialValue
        if overflow || needed < 0 || needed > options.maxMemory {
            throw CropError.tooMuchMemory(needed: overflow || needed < 0 ? Int.max : needed, limit: options.maxMemory,
                                          width: picture.storedWidth, height: picture.storedHeight)
        }
    }

    private func checked(_ rect: PixelRect, width: Int, height: Int, space: String) throws -> PixelRect {
        if rect.fits(width: width, height: height) { return rect }
        guard options.clamps else { throw CropError.rectOutside(rect: rect, width: width, height: height, space: space) }
        guard let inside = rect.clamped(width: width, height: height) else {
            throw CropError.rectDisjoint(rect: rect, width: width, height: height, space: space)
        }
        return inside
    }
}
