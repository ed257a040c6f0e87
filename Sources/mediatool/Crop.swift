import Jobs
import ArgumentParser
import Batch
import ImageCodecs
import ImageCropping
import Imaging
import FileIO
import Sandbox

extension ContentMode: ExpressibleByArgument {}
extension MetadataStrip: ExpressibleByArgument {}

struct Crop: ParsableCommand, DecodesInWorkers {
    static let configuration = CommandConfiguration(
        abstract: "Crop PNG, JPEG, WebP, HEIC, AVIF and TIFF pictures to a rect given as a person sees them.",
        discussion: """
            The rect is in the picture as displayed, its EXIF orientation applied (all eight, the \
            mirrored ones included), and is mapped to the stored pixels before cropping. With --view \
            it is in the coordinates of a view of that size showing the picture (--content-mode \
            stretch, fit or fill, as UIImageView does); with --stored, in the stored pixels. A \
            fractional rect is snapped outward where it is given (origin rounded down, far edges up), \
            then mapped exactly. The output (PNG, JPEG, WebP or AVIF, by --format or the extension of -o or \
            --name) holds upright pixels with the bit depth, alpha and colour profile (ICC, sRGB, gAMA, \
            cHRM) of the picture where the format can hold them, and its EXIF (orientation 1, the \
            crop's size, no thumbnail) and XMP unless --strip, without the position unless --location keep, and without serial numbers, owner names and maker notes (what strip removes); PHOTO.jpg is written to \
            PHOTO.crop.png beside it, or to -o FILE (one input) or --out-dir DIR.

            --lossless with JPEG output keeps a JPEG's own DCT blocks, as jpegtran -crop does: \
            nothing is decoded or re-encoded, the orientation is applied by turning the blocks, and \
            the rect must lie on the block grid (8 or 16 pixels) of the picture as shown; the error \
            names the nearest rect on it, which --lossless=expand takes.

            Examples:
              mediatool crop photo.jpg --rect 100,200,300,400
              mediatool crop a.jpg --view 400x1000 --content-mode fit --rect 10,20,100,80
              mediatool crop --keep-orientation --out-dir crops/ --rect 0,0,512,512 *.jpg
              mediatool crop --lossless=expand photo.jpg --rect 100,200,300,400 -o part.jpg

            Exit status: 0 when every input was cropped, 1 when any failed, 64 for usage errors.
            """
    )

    @Argument(help: "PNG, JPEG, WebP, HEIC/HEIF, AVIF or TIFF pictures, and folders of them.", completion: .file())
    var inputs: [String] = []

    @Option(help: "The rect X,Y,W,H (fractions allowed).")
    var rect: String

    @Option(help: "The rect is in a view of this size, WxH, showing the picture.")
    var view: String?

    @Option(help: "How the view shows the picture: stretch, fit or fill.")
    var contentMode: ContentMode = .stretch

    @Flag(help: "The rect is in stored pixel coordinates (orientation ignored).")
    var stored = false

    @Flag(help: "Crop the part of the rect inside the picture instead of failing.")
    var clamp = false

    @Flag(help: "Write the stored pixels with the orientation in an eXIf chunk, instead of upright pixels.")
    var keepOrientation = false

    @OptionGroup var location: LocationOption

    @OptionGroup var limits: LimitOptions

    @Option(help: ArgumentHelp("Leave metadata out: all (everything but the colour profile), or none (the default: EXIF and XMP kept, the orientation and size made the crop's, the position left out unless --location keep); gps, of earlier versions, is what none now does.", valueName: "none|all|gps"))
    var strip: MetadataStrip = .none

    @OptionGroup var encoding: EncodingOptions<CropEncodingHelp>

    @OptionGroup var outputs: OutputOptions

    @OptionGroup var batch: BatchOptions

    @OptionGroup var jobs: JobOptions

    @OptionGroup var sandbox: SandboxOptions

    /// The formats a folder is searched for.
    static let pictureExtensions = PictureFormat.readableExtensions

    func validate() throws {
        try batch.validate(inputs: inputs, missing: "Give at least one picture.")
        if outputs.name?.contains("{size}") == true { throw ValidationError("--name's {size} is thumbnail's: a crop has one size.") }
        if inputs.contains("-") && outputs.output == nil {
            throw ValidationError("Standard input has no name to make an output's from: give -o FILE (or -o -).")
        }
        _ = try parsedRect()
        if view != nil && stored { throw ValidationError("--view and --stored exclude each other.") }
        if view == nil && contentMode != .stretch { throw ValidationError("--content-mode goes with --view.") }
        _ = try parsedView()
        if outputs.writesToStandardOutput && jobs.json { throw ValidationError("-o - and --json both write to standard output.") }
        if strip == .gps && location.location == .keep { throw ValidationError("--strip gps and --location keep contradict each other.") }
    }

    func run() throws {
        var options = CropOptions(rect: try cropRect())
        options.clamps = clamp
        options.keepsOrientation = keepOrientation
        options.maxPixels = limits.maxPixels
        options.maxMemory = limits.maxMemory.bytes
        options.budget = limits.runBudget()
        options.output = outputs.policy
        options.format = try outputs.format(chosen: encoding.format, fallback: .png)
        try encoding.check(for: options.format, canKeepJPEGBlocks: true)
        options.encoding = encoding.settings
        options.losslessJPEG = encoding.losslessJPEG(for: options.format)
        options.strip = strip
        options.keepsLocation = location.keeps(byDefault: false)
        let sandboxRun = sandbox.begin(limits: limits, starting: [.pictures])
        let (plan, pictures, ownOutputs) = try outputs.plan(
            for: inputs, extensions: Self.pictureExtensions, batch: batch,
            defaultTemplate: OutputPlan.defaultTemplate(suffix: "crop", fileExtension: options.format.fileExtension))
        try sandboxRun.runBatch(pictures, plan: plan, jobs: jobs, ownOutputs: ownOutputs, spec: .crop(options),
                                serving: batch.serve ? batch.selection(extensions: Self.pictureExtensions) : nil)
    }

    private func cropRect() throws -> CropRect {
        let rect = try parsedRect()
        if stored { return .stored(rect) }
        if let (width, height) = try parsedView() {
            return .inView(rect, ViewMapping(viewWidth: width, viewHeight: height, mode: contentMode))
        }
        return .displayed(rect)
    }

    private func parsedRect() throws -> FractionalRect {
        guard let parsed = FractionalRect(parsing: rect) else {
            throw ValidationError("--rect takes X,Y,W,H with W and H above 0, e.g. 100,200,300,400, not '\(rect)'.")
        }
        return parsed
    }

    private func parsedView() throws -> (Double, Double)? {
        guard let view else { return nil }
        guard let size = ViewMapping.size(parsing: view) else {
            throw ValidationError("--view takes WxH, e.g. 400x1000, not '\(view)'.")
        }
        return size
    }
}
