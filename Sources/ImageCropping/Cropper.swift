import ImageCodecs
import Imaging
import MetadataStripping
import JPEGCodec
import FileIO

/// Where the rect of a crop is given.
public enum CropRect: Sendable, Codable, Equatable {
    /// In the picture as a person sees it (EXIF orientation applied).
    case displayed(FractionalRect)
    /// In a view of another size that shows the displayed picture.
    case inView(FractionalRect, ViewMapping)
    /// In the stored pixels, orientation ignored.
    case stored(FractionalRect)
}

public struct CropOptions: Sendable, Codable {
    public var rect: CropRect
    /// Crop the part of the rect inside the picture, instead of failing.
    public var clamps = false
    /// Write the stored pixels with the orientation in an eXIf chunk, instead of upright pixels.
    public var keepsOrientation = false
    /// Pictures with more pixels are refused from their header.
    public var maxPixels = CropOptions.defaultMaxPixels
    /// Crops that would take more memory to decode are refused before any allocation.
    public var maxMemory = CropOptions.defaultMaxMemory
    /// The run's memory, shared by its crops (see `MemoryBudget`); nil: each crop alone.
    public var budget: MemoryBudget?
    public var output = OutputPolicy(overwrite: false)
    /// The position where the picture was taken (EXIF GPS, XMP's places) stays in the crop
    /// (`--location keep`); left out otherwise, as from every output, with serials, the owner's
    /// name and maker notes (see `removedGroups`).
    public var keepsLocation = false
    public var format: ImageFormat = .png
    public var encoding = EncodingSettings()
    /// What of the picture's metadata is left out of the crop; the colour description always stays.
    public var strip: MetadataStrip = .none
    /// Threads of one crop (HEIF tiles; the encoder's are in `encoding`); 0 for every core.
    public var threads = 0
    /// JPEG output without re-encoding: the source's DCT blocks, cropped on their grid.
    public var losslessJPEG: LosslessAlignment?

    public static let defaultMaxPixels = DecodeLimits.defaultMaxPixels
    public static let defaultMaxMemory = DecodeLimits.defaultMaxMemory

    /// The budget is this process's: a worker sent the options makes its own, lent by its parent.
    private enum CodingKeys: String, CodingKey {
        case rect, clamps, keepsOrientation, maxPixels, maxMemory, output, format, encoding, strip, keepsLocation, threads, losslessJPEG
    }

    public init(rect: CropRect) {
        self.rect = rect
    }
}

/// What of a picture's metadata a crop leaves out.
public enum MetadataStrip: String, Sendable, Codable, CaseIterable {
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

/// A crop in memory: its pixels (upright unless the orientation is kept) and what it carries.
public struct CroppedPicture: Sendable {
    public let pixels: PixelBuffer
    public let metadata: PictureMetadata
    /// The picture's orientation, applied unless kept.
    public let orientation: Orientation
    /// The rect of stored pixels cropped.
    public let storedRect: PixelRect
    public let warnings: [String]
}

/// Crops pictures of every format the tool reads (`PictureFormat.all`) to a rect given as a person sees them.
public struct Cropper: Sendable {
    public let options: CropOptions

    public init(options: CropOptions) {
        self.options = options
    }

    public func crop(_ input: String, to output: String) throws -> CropReport {
        let (file, target) = try OutputGuard.open(input: input, output: output, policy: options.output,
                                                  recognise: PictureFormat.recognise)
        let report = try crop(from: file, into: target.descriptor, output: output)
        try target.commit()
        return report
    }

    /// The crop of an open input, written whole to `descriptor` (the output's temporary, which the
    /// caller moves into place); `output` names it in messages and the report.
    public func crop(from file: InputFile, into descriptor: Int32, output: String) throws -> CropReport {
        let picture = try open(file)
        let storedRect = try self.storedRect(of: picture)
        if let alignment = options.losslessJPEG {
            guard let jpeg = picture as? JPEGPicture else { throw CropError.losslessNeedsJPEG }
            return try cropLosslessly(jpeg, storedRect: storedRect, alignment: alignment, file: file, into: descriptor, output: output)
        }
        let cropped = try crop(picture, storedRect: storedRect)
        var settings = options.encoding
        settings.jpegSubsampling = settings.jpegSubsampling ?? picture.subsampling
        let encoder = ImageEncoders.encoder(for: options.format, settings: settings)
        let reservation = try options.format.reserveEncoder(for: [cropped.pixels], settings: settings, maxMemory: options.maxMemory, budget: options.budget)
        let left = try withExtendedLifetime(reservation) { try encoder.write(cropped.pixels, metadata: cropped.metadata, to: descriptor) }
        return CropReport(output: output, orientation: cropped.orientation, storedRect: storedRect, warnings: cropped.warnings + left)
    }

    /// The crop of an open input as pixels, with the metadata it carries, in memory.
    public func croppedPicture(from file: InputFile) throws -> CroppedPicture {
        let picture = try open(file)
        return try crop(picture, storedRect: try storedRect(of: picture))
    }

    private func crop(_ picture: any SourcePicture, storedRect: PixelRect) throws -> CroppedPicture {
        let orientation = picture.orientation
        let reservation = try checkMemory(picture, storedRect)
        defer { withExtendedLifetime(reservation) {} }
        let stored = try picture.pixels(of: storedRect)
        let keeps = options.keepsOrientation && picture.keepsStoredPixels
        var warnings = picture.warnings
        if options.keepsOrientation && !keeps && orientation != .identity {
            warnings.append("a HEIF orientation is no EXIF orientation: the crop was turned upright instead (\(Setting.keepsOrientation))")
        }
        let shown = keeps ? orientation : .identity
        let pixels = keeps ? stored : stored.oriented(orientation)
        return CroppedPicture(pixels: pixels, metadata: metadata(of: picture, orientation: shown, width: pixels.width, height: pixels.height),
                              orientation: orientation, storedRect: storedRect, warnings: warnings)
    }

    /// The picture, its header checked against the crop's limits; a need over `--max-memory` said as the crop's.
    private func open(_ file: InputFile) throws -> any SourcePicture {
        do {
            return try PictureFormat.open(file, PictureOpening(maxPixels: options.maxPixels, maxMemory: options.maxMemory, threads: options.threads))
        } catch DecodeLimitError.tooMuchMemory(let needed, let limit, let width, let height) {
            throw CropError.tooMuchMemory(needed: needed, limit: limit, width: width, height: height)
        }
    }

    /// The crop as a JPEG of the source's own blocks, turned upright losslessly (or left as stored
    /// with `--keep-orientation`), with the metadata any crop carries.
    private func cropLosslessly(_ picture: JPEGPicture, storedRect: PixelRect, alignment: LosslessAlignment,
                                file: InputFile, into descriptor: Int32, output: String) throws -> CropReport {
        let orientation = picture.orientation
        let lossless = LosslessJPEGCrop(picture: picture, transform: options.keepsOrientation ? .identity : orientation)
        let requested = lossless.transform.displayedRect(forStored: storedRect, storedWidth: picture.storedWidth,
                                                         storedHeight: picture.storedHeight)
        let rect = try lossless.alignedRect(requested, alignment: alignment)
        let blocks = try lossless.crop(rect, file: file, progressive: options.encoding.jpegProgressive, maxMemory: options.maxMemory,
                                       budget: options.budget)
        let shown = options.keepsOrientation ? orientation : .identity
        let carried = metadata(of: picture, orientation: shown, width: rect.width, height: rect.height)
        let segments = JPEGSegments.metadata(exif: carried.exif, xmp: carried.xmp, iccProfile: carried.color?.iccProfile)
        try FileSystem.writeAll(JPEGSegments.inserting(segments.bytes, into: blocks), to: descriptor, target: output)
        let taken = lossless.transform.storedRect(forDisplayed: rect, storedWidth: picture.storedWidth, storedHeight: picture.storedHeight)
        return CropReport(output: output, orientation: orientation, storedRect: taken, warnings: picture.warnings + segments.leftOut)
    }

    /// What of the picture's metadata the crop carries: the colour description always, EXIF as
    /// `carriedExif` makes it, XMP unless stripped.
    func metadata(of picture: SourcePicture, orientation: Orientation, width: Int, height: Int) -> PictureMetadata {
        PictureMetadata(color: picture.color, exif: carriedExif(of: picture, orientation: orientation, width: width, height: height),
                        xmp: options.strip == .all ? nil : picture.xmp.map { carriedXMP(XMPOrientation.setting(orientation, in: $0)) })
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
        return MetadataScrub.exif(block.bytes, removing: removedGroups)
    }

    /// The picture's XMP as the crop carries it, without what `strip` removes.
    func carriedXMP(_ packet: [UInt8]) -> [UInt8] {
        MetadataScrub.xmp(packet, removing: removedGroups)
    }

    /// What `strip` removes by default leaves every crop too (serials, owner, maker notes, and the
    /// position unless `--location keep`): a crop is made to be shown.
    var removedGroups: Set<StripGroup> {
        options.keepsLocation && options.strip != .gps ? StripGroup.removedByDefault.subtracting([.location]) : StripGroup.removedByDefault
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
            let inside: PixelRect
            do {
                inside = try checked(pictureRect.snappedOutward(), width: displayed.width, height: displayed.height, space: "displayed")
            } catch CropError.rectOutside(let mapped, let width, let height, _) {
                // Said in the rect the user typed, with what it became.
                throw CropError.viewRectOutside(rect: rect, mapping: mapping, mapped: mapped, width: width, height: height, meets: true)
            } catch CropError.rectDisjoint(let mapped, let width, let height, _) {
                throw CropError.viewRectOutside(rect: rect, mapping: mapping, mapped: mapped, width: width, height: height, meets: false)
            }
            return orientation.storedRect(forDisplayed: inside, storedWidth: picture.storedWidth, storedHeight: picture.storedHeight)
        }
    }

    /// The decoder's own needs, the region, and its upright copy, against `--max-memory`; held of
    /// the run's budget for as long as the reservation lives.
    private func checkMemory(_ picture: SourcePicture, _ rect: PixelRect) throws -> MemoryBudget.Reservation? {
        let (region, overflow) = rect.width.multipliedReportingOverflow(by: rect.height * picture.bytesPerPixel)
        let needed = overflow ? Int.max : picture.workingBytes.addingReportingOverflow(2 * region).partialValue
        if overflow || needed < 0 || needed > options.maxMemory {
            throw CropError.tooMuchMemory(needed: overflow || needed < 0 ? Int.max : needed, limit: options.maxMemory,
                                          width: picture.storedWidth, height: picture.storedHeight)
        }
        return options.budget?.reserve(needed)
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
