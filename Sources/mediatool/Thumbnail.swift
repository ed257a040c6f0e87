import MediaFormats
import Jobs
import ArgumentParser
import Batch
import FFmpeg
import FileIO
import ImageCodecs
import Imaging
import Sandbox
import VideoThumbnails

extension HDRHandling: ExpressibleByArgument {}
extension CropGravity: ExpressibleByArgument {
    /// `center` too, as most of the world's software spells it.
    public init?(argument: String) {
        self.init(rawValue: argument == "center" ? "centre" : argument)
    }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

/// `--colorspace`: what becomes of a picture's colour profile.
enum ColourSpaceChoice: String, ExpressibleByArgument, CaseIterable {
    case keep, srgb
}

struct Thumbnail: ParsableCommand, DecodesInWorkers {
    static let configuration = CommandConfiguration(
        abstract: "Write a still image of each video at a time, as a player shows it, or of each picture, upright; in every size asked.",
        discussion: """
            The picture is the exact frame shown at the time (decoded forward from the keyframe \
            before it), turned upright by the display matrix (rotations and flips), at its display \
            aspect (anamorphic pixels made square), with the stream's own YUV matrix and range. A \
            source with alpha gives an RGBA PNG. CLIP.mov is written to CLIP.thumb.png beside it, \
            or to -o FILE (one input) or --out-dir DIR.

            Pictures (JPEG, PNG, HEIC/AVIF, WebP, TIFF) are turned upright by their EXIF or HEIF \
            orientation and reduced from one decode at the smallest scale their format decodes to \
            (JPEG at 1/2, 1/4 or 1/8; WebP scaled; PNG row by row), with a Lanczos-3 filter in \
            their own bit depth; their ICC profile is kept. A folder of photos and videos works in \
            one run.

            Sizes: --size 150 (a 150x150 box), 300x200, 300x (a width) or x200 (a height), as many \
            as needed (or --sizes 150,300,1024): every size from one decode, each written to its own \
            file, named by {size} ({stem}.{size}.png by default when there are several). A size \
            fits inside its box and never enlarges the picture unless --enlarge; with --fill it is \
            exactly the box, cut around --gravity.

            Times: seconds (35, 35.2), a timestamp (1:02.5, 00:01:02.500) or a percentage of the \
            duration (10%), counted from the first frame. A time past the end gives the last frame \
            and a warning. --at auto picks a poster frame worth showing (see --at).

            Examples:
              mediatool thumbnail clip.mov
              mediatool thumbnail --at 1:02.5 --width 320 clip.mp4 -o poster.jpg
              mediatool thumbnail --at 0 --keyframe --out-dir thumbs/ *.mkv
              mediatool thumbnail --sizes 150,1024 --format jpeg --out-dir thumbs/ uploads/
              mediatool thumbnail --size 256 --fill --gravity attention IMG_0001.heic

            Exit status: 0 when every input gave a thumbnail, 1 when any failed, 64 for usage errors.
            """
    )

    @Argument(help: "Videos and pictures, and folders of them.", completion: .file())
    var inputs: [String] = []

    // Parsed once, here: a transform, so that a wrong time says what a right one looks like.
    @Option(name: .customLong("at"), help: ArgumentHelp("The time: seconds, [[h:]m:]s[.fff], a percentage of the duration, or auto: a frame from 5% to 30% of the duration (a keyframe where keyframes are dense) that is not black, white, flat or mid-fade, and closest to the average colours of the others (default: 10%; a raw stream, which states no duration, shows its first frame then).", valueName: "time"),
            transform: { text in
                guard let time = ThumbnailTime(parsing: text) else {
                    throw ValidationError("it takes seconds (35.2), a timestamp (1:02.5), a percentage (10%) or auto")
                }
                return time
            })
    var givenTime: ThumbnailTime?

    /// The time asked for, else 10%: nil tells a time given (even 10%) from the default.
    var at: ThumbnailTime { givenTime ?? .at(.fraction(0.1)) }

    @Flag(help: "The keyframe at or before the time instead of the exact frame (faster).")
    var keyframe = false

    @Option(help: ArgumentHelp("HDR (PQ, HLG) frames and photos: tonemap to SDR, or keep as a 16-bit PNG with a cICP chunk or a 10-bit AVIF (--format avif), which HDR viewers show as HDR.", valueName: "tonemap|keep"))
    var hdr: HDRHandling = .toneMap

    @Option(help: ArgumentHelp("PNG sample depth: 8, or 16 to keep 10 and 12-bit precision.", valueName: "8|16"))
    var depth: Int = 8

    @Flag(help: "Write the file's cover art (its attached picture: MP4 covr, MKV attachment, MP3/M4A artwork) instead of a frame; --cover=prefer writes it when there is one and a frame otherwise.")
    var cover = false

    /// `--cover=prefer`, which `MediaTool.main` spells this way for the parser.
    @Flag(name: .customLong("cover-prefer"), help: .hidden)
    var coverPrefer = false

    @OptionGroup var frames: FrameOptions<ThumbnailFrameHelp>

    @Option(name: .customLong("size"), help: ArgumentHelp("A size to write: N (an NxN box), WxH, Wx or xH; give it again for more sizes, all from one decode.", valueName: "size"))
    var size: [ThumbnailSize] = []

    @Option(help: ArgumentHelp("Sizes to write, separated by commas (150,300x300,1024).", valueName: "sizes"))
    var sizes: String?

    @Flag(help: "Let a --size make the picture larger than it is (by default a smaller picture keeps its size).")
    var enlarge = false

    @Flag(help: "Make each --size exactly its box: scaled to cover it, then cut to it around --gravity (a smaller picture is not enlarged unless --enlarge: it is cut to the part of the box it covers).")
    var fill = false

    @Option(help: ArgumentHelp("A picture's colours: keep its ICC profile with them, or convert them to sRGB through the profile (lcms2), for browsers and sites that ignore profiles.", valueName: "keep|srgb"))
    var colorspace: ColourSpaceChoice = .keep

    @Option(help: ArgumentHelp("Where --fill cuts: centre (the default), top, bottom, left, right, or attention (the part with the most detail, colour and skin tones).", valueName: "gravity"))
    var gravity: CropGravity?

    @OptionGroup var encoding: EncodingOptions<ThumbnailEncodingHelp>

    @OptionGroup var outputs: OutputOptions

    @OptionGroup var batch: BatchOptions

    @OptionGroup var limits: LimitOptions

    @OptionGroup var jobs: JobOptions

    @OptionGroup var sandbox: SandboxOptions

    /// Every size asked, once each, in the order given.
    func allSizes() throws -> [ThumbnailSize] {
        var listed = size
        if let sizes {
            for part in sizes.split(separator: ",", omittingEmptySubsequences: false) {
                guard let parsed = ThumbnailSize(parsing: String(part.filter { $0 != " " })) else {
                    throw ValidationError("--sizes takes sizes separated by commas (150,300x300,1024), not '\(part)'.")
                }
                listed.append(parsed)
            }
        }
        var seen: Set<String> = []
        return listed.map { ThumbnailSize(width: $0.width, height: $0.height, enlarges: enlarge) }.filter { seen.insert($0.description).inserted }
    }

    func validate() throws {
        try batch.validate(inputs: inputs, missing: "Give at least one video or picture.")
        let sizes = try allSizes()
        if !sizes.isEmpty && (frames.width != nil || frames.height != nil) {
            throw ValidationError("Give sizes by --size (or --sizes), or one by --width/--height, not both.")
        }
        if fill && (sizes.isEmpty || sizes.contains { $0.width == nil || $0.height == nil }) {
            throw ValidationError("--fill needs every size as a box: --size N or --size WxH.")
        }
        if gravity != nil && !fill { throw ValidationError("--gravity says where --fill cuts: give --fill too.") }
        if enlarge && sizes.isEmpty { throw ValidationError("--enlarge applies to --size (--width and --height always give that size).") }
        if sizes.count > 1 {
            if outputs.writesToStandardOutput { throw ValidationError("-o - writes one picture: give one --size.") }
            for (flag, name) in [("-o", outputs.output), ("--name", outputs.name)] where name.map({ !$0.contains("{size}") }) ?? false {
                throw ValidationError("\(flag) must hold {size} when several sizes are written, so that each has its own name.")
            }
        }
        if inputs.contains("-") && outputs.output == nil {
            throw ValidationError("Standard input has no name to make an output's from: give -o FILE (or -o -).")
        }
        guard depth == 8 || depth == 16 else { throw ValidationError("--depth takes 8 or 16.") }
        if outputs.writesToStandardOutput && jobs.json { throw ValidationError("-o - and --json both write to standard output.") }
    }

    func run() throws {
        // With --cover, sound files with artwork too.
        let extensions = cover || coverPrefer ? SearchedExtensions.media : SearchedExtensions.videos.union(SearchedExtensions.pictures)
        let sizes = try allSizes()
        var options = ThumbnailOptions()
        options.time = at
        options.firstFrameWithoutDuration = !videoOnlyOptionsGiven().contains("--at")
        options.mode = keyframe ? .keyframe : .exact
        options.maxWidth = frames.width
        options.maxHeight = frames.height
        options.appliesOrientation = !frames.noRotate
        options.cover = coverPrefer ? .prefer : cover ? .only : .never
        options.videoStream = frames.videoStream
        options.deinterlaces = !frames.noDeinterlace
        options.hdr = hdr
        options.sixteenBit = depth == 16
        options.format = try outputs.format(chosen: encoding.format, fallback: .png)
        try encoding.check(for: options.format, canKeepJPEGBlocks: false)
        if hdr == .keep && !options.format.keepsHDR {
            throw ValidationError("--hdr keep writes 16-bit PNG with a cICP chunk or 10-bit AVIF: \(options.format.rawValue) holds 8 bits and no HDR tags.")
        }
        if depth == 16 && options.format != .png {
            throw ValidationError("--depth 16 writes 16-bit PNG: \(options.format.rawValue) \(options.format == .avif ? "is written with 8 bits (10 for HDR kept)" : "holds 8 bits").")
        }
        options.encoding = encoding.settings
        options.output = outputs.policy
        options.limits = limits.runLimits()
        options.sizes = sizes
        options.fill = fill ? gravity ?? .centre : nil
        options.convertsToSRGB = colorspace == .srgb
        if videoOnlyOptionsGiven().contains("--at"), case .at(let time) = at {
            switch time {
            case .seconds(let seconds): options.animationTime = .seconds(seconds)
            case .fraction(let fraction): options.animationTime = .fraction(fraction)
            }
        }
        options.videoOnlyOptions = videoOnlyOptionsGiven()
        let sandboxRun = sandbox.begin(limits: limits, starting: [StartingDecoders.guess(inputs, filesFrom: batch.filesFrom != nil)])
        let (plan, files, ownOutputs) = try outputs.plan(
            for: inputs, extensions: extensions, batch: batch,
            defaultTemplate: OutputPlan.defaultTemplate(suffix: sizes.isEmpty ? "thumb" : "{size}", fileExtension: options.format.fileExtension),
            variants: sizes.isEmpty ? [""] : sizes.map(\.description),
            // A thumbnail an earlier run wrote at any size (or as .thumb) beside its photo is no photo to thumbnail.
            earlierVariant: { $0 == "thumb" || $0 == ThumbnailSize.original.description || ThumbnailSize(parsing: $0) != nil })
        try sandboxRun.runBatch(files, plan: plan, jobs: jobs, ownOutputs: ownOutputs, spec: .thumbnail(options),
                                serving: batch.serve ? batch.selection(extensions: extensions) : nil)
    }

    /// The options given that a picture has no use for, as the user spelled them.
    func videoOnlyOptionsGiven() -> [String] {
        var given: [String] = []
        // `--at auto` asks for the picture worth showing, which a photo is: no word about it.
        if let givenTime, givenTime != .posterFrame { given.append("--at") }
        if keyframe { given.append("--keyframe") }
        if cover || coverPrefer { given.append("--cover") }
        if frames.videoStream != nil { given.append("--stream") }
        if frames.noDeinterlace { given.append("--no-deinterlace") }
        return given
    }
}

extension ThumbnailSize: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(parsing: argument)
    }
}
