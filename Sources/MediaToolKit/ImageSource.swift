import Foundation
internal import FileIO
internal import Batch
internal import Jobs
internal import JSON
internal import Sandbox
internal import ImageCodecs
internal import ImageCropping
internal import Imaging
internal import VideoThumbnails
internal import WorkerPool

/// A picture file (JPEG, PNG, HEIC, AVIF, WebP, TIFF), its header read: what it is and how it is
/// shown, and the pixels of a region or of the whole at any size, decoded on demand. The counterpart
/// of `CGImageSource`, with the orientation applied for you.
///
/// Each call decodes only what it needs (a crop the rows and tiles its rect touches; a thumbnail at the
/// smallest scale its format decodes to). Calls on one source run one at a time; sources are independent.
public final class ImageSource: Sendable {
    let file: InputFile
    let configuration: MediaConfiguration
    /// One permit: taken where a call's job opens the input, given back where the call ends.
    private let reading = Permits(1)

    /// The source's name in errors.
    public let name: String
    /// `jpeg`, `png`, `webp`, `heic`, `avif`, `tiff`.
    public let format: String
    /// The stored pixels' width.
    public let storedWidth: Int
    /// The stored pixels' height.
    public let storedHeight: Int
    /// How the stored pixels are turned upright (EXIF, or HEIF's `irot`/`imir`).
    public let orientation: ImageOrientation
    /// The width as a person sees it: what `image()` gives and `.displayed` crops are in.
    public let width: Int
    /// The height as a person sees it.
    public let height: Int

    /// Opens the picture and reads its header; nothing is decoded. Pictures over the configuration's
    /// pixel limit are refused here.
    public convenience init(_ source: MediaSource, configuration: MediaConfiguration = MediaConfiguration()) async throws(MediaError) {
        let cancellation = try? JobCancellation()
        let opened = try await BlockingWork.run(file: source.name, on: configuration.pool, cancellation: cancellation) { isCancelled in
            let file = try source.open(recognise: PictureFormat.recognise, stop: SandboxedCalls.stop(configuration, isCancelled: isCancelled))
            let header = try SandboxedCalls.run(.pictureHeader(maxPixels: configuration.maxPixels, maxMemory: configuration.maxMemory), on: file,
                                                configuration: configuration, cancellation: cancellation, isCancelled: isCancelled) { _ in }
            return try OpenedPicture(file: file, header: header)
        }
        self.init(opened, name: source.name, configuration: configuration)
    }

    private init(_ opened: OpenedPicture, name: String, configuration: MediaConfiguration) {
        file = opened.file
        self.configuration = configuration
        self.name = name
        format = opened.format
        storedWidth = opened.storedWidth
        storedHeight = opened.storedHeight
        orientation = opened.orientation
        (width, height) = orientation.orientation.displaySize(storedWidth: storedWidth, storedHeight: storedHeight)
    }

    /// What opening reads: the input, and its header's facts.
    private struct OpenedPicture: Sendable {
        let file: InputFile
        let format: String
        let storedWidth: Int
        let storedHeight: Int
        let orientation: ImageOrientation

        /// From the header job's report, which a worker may have written: checked.
        init(file: InputFile, header: JobReport) throws {
            let members = JSONValue.object(header.fields.map { JSONMember($0.name, $0.value) })
            guard let facts = try? JSONValueDecoder.decode(PictureHeaderResult.self, from: members),
                  (1...16).contains(facts.format.utf8.count),
                  facts.format.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }),
                  facts.storedWidth > 0, facts.storedHeight > 0, let orientation = ImageOrientation(rawValue: facts.orientation) else {
                throw WorkerFailure.malformedReply
            }
            self.file = file
            format = facts.format
            storedWidth = facts.storedWidth
            storedHeight = facts.storedHeight
            self.orientation = orientation
        }
    }

    /// The pixels inside `rect`, upright. `.displayed` (the default) takes the rect on the picture
    /// as shown; `.stored` as stored, as `CGImage.cropping(to:)` does, and still turns the result
    /// upright. A rect that reaches outside the picture is an error, unless `clamps`: then the part
    /// inside is taken.
    public func cropping(to rect: ImageRect, in coordinates: CropCoordinates = .displayed, clamps: Bool = false) async throws(MediaError) -> Bitmap {
        guard [rect.x, rect.y, rect.width, rect.height].allSatisfy({ $0.isFinite && abs($0) <= FractionalRect.coordinateLimit }),
              rect.width > 0, rect.height > 0 else {
            throw .invalidRequest(file: name, reason: "the rect \(rect.x),\(rect.y),\(rect.width),\(rect.height) is not one: a width and height above 0, every number finite")
        }
        if case .view(let width, let height, _) = coordinates,
           !(width.isFinite && height.isFinite && width > 0 && height > 0 && width <= FractionalRect.coordinateLimit && height <= FractionalRect.coordinateLimit) {
            throw .invalidRequest(file: name, reason: "a view of \(width)x\(height) is not one: a width and height above 0, every number finite")
        }
        let fractional = FractionalRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
        let cropRect: CropRect
        switch coordinates {
        case .displayed: cropRect = .displayed(fractional)
        case .stored: cropRect = .stored(fractional)
        case .view(let width, let height, let mode):
            cropRect = .inView(fractional, ViewMapping(viewWidth: width, viewHeight: height, mode: ContentMode(rawValue: mode.rawValue)!))
        }
        var options = CropOptions(rect: cropRect)
        options.clamps = clamps
        options.maxPixels = configuration.maxPixels
        options.maxMemory = configuration.maxMemory
        options.budget = configuration.callBudget
        options.threads = configuration.threadCount
        return try await pictures(.crop(options), count: 1)[0]
    }

    /// The whole picture, upright, at its display size.
    public func image() async throws(MediaError) -> Bitmap {
        try await thumbnails(fitting: [.original])[0]
    }

    /// The picture upright in every size asked, from one decode: one bitmap a size, in their order.
    public func thumbnails(fitting sizes: [ThumbnailBounds]) async throws(MediaError) -> [Bitmap] {
        var options = thumbnailOptions
        options.sizes = try ThumbnailBounds.sizes(sizes, file: name)
        return try await pictures(.thumbnails(options), count: options.sizes.count)
    }

    /// The job's pictures, one call of this source at a time (its input's descriptor is shared).
    private func pictures(_ job: PixelJob, count: Int) async throws(MediaError) -> [Bitmap] {
        let (file, reading) = (self.file, self.reading)
        return try await SandboxedCalls.pictures(job, of: { _ in reading.take(); return file }, name: name, count: count,
                                                 configuration: configuration, finally: { reading.give() }).map(Bitmap.init)
    }

    var thumbnailOptions: ThumbnailOptions {
        var options = ThumbnailOptions()
        options.limits = configuration.limits
        options.threads = configuration.threadCount
        options.encoding.threads = configuration.threadCount
        return options
    }
}
