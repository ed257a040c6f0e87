import Batch
import FileIO
import ImageCodecs
import ImageCropping
import Imaging
import JSON
import VideoThumbnails

/// A library's call as a job: its result is pictures in memory (`PictureRecord`s) rather than
/// files, or a picture's header. The same code runs them in the caller's process (`run`) and in a
/// worker (`job`, which writes the records to its output pipe), so that what a caller gets does
/// not depend on where the work was done.
public enum PixelJob: Sendable, Codable {
    /// A picture, or a video's frame at the options' time, in each of the options' sizes: one record a size.
    case thumbnails(ThumbnailOptions)
    /// A video's frame at `seconds` in the options' sizes: the keyframe at or before it when that
    /// lies within `tolerance` (the options' mode `.keyframe`), else the exact frame.
    case frame(ThumbnailOptions, seconds: Double, tolerance: Double)
    /// A video's frames at `times` (ascending) from one pass, one record each as it is decoded.
    case frames(ThumbnailOptions, times: [Double])
    /// The options' rect of a picture, upright: one record.
    case crop(CropOptions)
    /// A picture's format, stored size and orientation, read from its header: no record.
    case pictureHeader(maxPixels: Int, maxMemory: Int)

    /// What the input must be: a picture, or media FFmpeg reads.
    public var decoders: @Sendable (_ input: InputFile) -> JobDecoders {
        switch self {
        case .crop, .pictureHeader: return { _ in .pictures }
        case .thumbnails, .frame, .frames: return JobDecoders.forInput
        }
    }

    /// Does the job on `file`; each picture goes to `emit` as it is made. The report's fields are
    /// a header's facts (`format`, `stored_width`, `stored_height`, `orientation`).
    public func run(_ file: InputFile, isCancelled: () -> Bool = { false }, emit: (PictureRecord) throws -> Void) throws -> JobReport {
        func emitAll(_ made: MadeThumbnails) throws {
            for (index, picture) in made.pictures.enumerated() {
                try emit(PictureRecord(index: index, pixels: picture, metadata: made.metadata, seconds: made.seconds,
                                       orientation: made.orientation, warnings: made.warnings))
            }
        }
        switch self {
        case .thumbnails(let options):
            try emitAll(try Thumbnailer(options: options).pictures(from: file, sizes: options.sizes))
        case .frame(let options, let seconds, let tolerance):
            var made = try Thumbnailer(options: options).pictures(from: file, sizes: options.sizes)
            if options.mode == .keyframe, let shown = made.seconds, seconds - shown > tolerance {
                if isCancelled() { throw CancellationError() }
                var exact = options
                exact.mode = .exact
                made = try Thumbnailer(options: exact).pictures(from: file, sizes: options.sizes)
            }
            try emitAll(made)
        case .frames(let options, let times):
            try Thumbnailer(options: options).videoFrames(from: file, atSeconds: times, sizes: options.sizes) { index, made in
                if isCancelled() { throw CancellationError() }
                try emit(PictureRecord(index: index, pixels: made.pictures[0], metadata: made.metadata, seconds: made.seconds,
                                       orientation: made.orientation, warnings: made.warnings))
            }
        case .crop(let options):
            let cropped = try Cropper(options: options).croppedPicture(from: file)
            try emit(PictureRecord(index: 0, pixels: cropped.pixels, metadata: PictureMetadata(color: cropped.metadata.color),
                                   seconds: nil, orientation: cropped.orientation, warnings: cropped.warnings))
        case .pictureHeader(let maxPixels, let maxMemory):
            var opening = PictureOpening(maxPixels: maxPixels, maxMemory: maxMemory, threads: 1)
            opening.readsPixels = false
            let picture = try PictureFormat.open(file, opening)
            return try JobReport(PictureHeaderResult(format: picture.facts.format, storedWidth: picture.storedWidth,
                                                     storedHeight: picture.storedHeight, orientation: picture.orientation.rawValue),
                                 warnings: [])
        }
        return JobReport(fields: [], warnings: [])
    }

    /// Whether `record` can be what this job asked for, as far as the caller can tell without the
    /// file: within the size asked for its index, and within `maxPixels`. A worker's records are
    /// checked against it: one taken over by a file answers what it likes.
    public func admits(_ record: PictureRecord, maxPixels: Int) -> Bool {
        let (width, height) = (record.pixels.width, record.pixels.height)
        guard width.multipliedReportingOverflow(by: height).partialValue <= maxPixels,
              !width.multipliedReportingOverflow(by: height).overflow else { return false }
        let sizes: [ThumbnailSize]
        switch self {
        case .thumbnails(let options), .frame(let options, _, _): sizes = options.sizes
        case .frames(let options, _): sizes = Array(repeating: options.sizes.first ?? .original, count: record.index + 1)
        case .crop, .pictureHeader: return true
        }
        guard sizes.indices.contains(record.index) else { return false }
        let size = sizes[record.index]
        return (size.width.map { width <= $0 } ?? true) && (size.height.map { height <= $0 } ?? true)
    }

    /// The job in a worker: the records written to the output pipe as they are made.
    public var job: FileJob {
        var job = FileJob(recognise: nil, policy: OutputPolicy(overwrite: false, isNamedByUser: false)) { file, outputs, name in
            try run(file) { record in
                try record.bytes.withUnsafeBytes { try FileSystem.writeAll($0, to: outputs.primary, target: name) }
            }
        }
        job.decoders = decoders
        return job
    }

    /// The same job, its memory reserved from the budget `make` gives.
    func budgeted(by make: BudgetMaker) -> PixelJob {
        switch self {
        case .thumbnails(var options):
            options.limits = options.limits.budgeted(by: make)
            return .thumbnails(options)
        case .frame(var options, let seconds, let tolerance):
            options.limits = options.limits.budgeted(by: make)
            return .frame(options, seconds: seconds, tolerance: tolerance)
        case .frames(var options, let times):
            options.limits = options.limits.budgeted(by: make)
            return .frames(options, times: times)
        case .crop(var options):
            options.budget = make(options.maxMemory, options.budget)
            return .crop(options)
        case .pictureHeader:
            return self
        }
    }
}
