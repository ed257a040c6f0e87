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

    public static let defaultMaxPixels = 268_000_000
    public static let defaultMaxMemory = 1 << 30

    public init(rect: CropRect) {
        self.rect = rect
    }
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
        let file = try InputFile(path: input).randomAccess()
        try OutputGuard.refuse(file, asOutput: output)
        let target = try AtomicOutputFile(path: output, policy: options.output)
        let picture = try SourcePictures.open(file: file, maxPixels: options.maxPixels)
        let orientation = picture.orientation
        let storedRect = try self.storedRect(of: picture)
        try checkMemory(picture, storedRect)
        let stored = try picture.pixels(of: storedRect)
        let encoder = ImageEncoders.encoder(for: options.format, settings: options.encoding)
        let left: [String]
        if options.keepsOrientation {
            let exif = orientation == .identity ? nil : ExifOrientation.tiff(for: orientation)
            left = try encoder.write(stored, metadata: PictureMetadata(color: picture.color, exif: exif), to: target.descriptor)
        } else {
            left = try encoder.write(stored.oriented(orientation), metadata: PictureMetadata(color: picture.color),
                                     to: target.descriptor)
        }
        try target.commit()
        return CropReport(output: output, orientation: orientation, storedRect: storedRect, warnings: picture.warnings + left)
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
