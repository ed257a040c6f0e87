import MediaFormats
import Jobs
import ArgumentParser
import Sandbox
import Batch
import FileIO
import ImageCodecs
import Storyboards
import FFmpeg

/// `--tile CxR` or `--tile none`.
struct TileArgument: ExpressibleByArgument {
    let tiling: Tiling

    init?(argument: String) {
        if argument == "none" {
            tiling = .none
            return
        }
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
              (1...1000).contains(columns), (1...1000).contains(rows) else { return nil }
        tiling = .sheets(columns: columns, rows: rows)
    }

    init(tiling: Tiling) {
        self.tiling = tiling
    }

    /// What help shows as the default: the argument as it is typed.
    var defaultValueDescription: String {
        switch tiling {
        case .none: return "none"
        case .sheets(let columns, let rows): return "\(columns)x\(rows)"
        }
    }
}

struct Storyboard: ParsableCommand, DecodesInWorkers {
    static let configuration = CommandConfiguration(
        abstract: "Write many frames of each video from one pass: sprite sheets and a WebVTT index for scrub previews.",
        discussion: """
            The frames are evenly spaced (--count, centred in equal intervals) or one every TIME \
            (--every), within --from and --to; by default the keyframe at or before each time, each \
            decoded once, or where keyframes are sparser than the cells the exact frames, so that no \
            two cells show one keyframe (--exact for the exact frames always, --keyframe for keyframes \
            always). Each frame fits a cell \
            of --width (160 by default) and --height, upright, at display aspect, HDR tone mapped; \
            cells fill --tile sheets row by row (10x10 by default; 'none' for one picture a frame).

            CLIP.mp4 gives CLIP.vtt beside it (or --vtt FILE for one input, or under --out-dir), and \
            beside that CLIP.sheet-1.jpg, CLIP.sheet-2.jpg... (or CLIP.001.jpg... with --tile none). \
            Each WebVTT cue names the cell that previews its time: CLIP.sheet-1.jpg#xywh=160,0,160,90, \
            relative to the WebVTT file, or after --vtt-base URL. The pictures and the WebVTT file \
            appear together or not at all.

            Examples:
              mediatool storyboard clip.mp4
              mediatool storyboard --every 10s --tile 5x5 --format webp clip.mp4
              mediatool storyboard --out-dir previews/ --vtt-base /media/previews *.mp4
              mediatool storyboard --html clip.html clip.mp4

            Exit status: 0 when every input gave a storyboard, 1 when any failed, 64 for usage errors.
            """
    )

    @Argument(help: "Video files, and folders of them.", completion: .file())
    var inputs: [String] = []

    @Option(help: "Frames evenly spaced over the range (default 100).")
    var count: Int?

    @Option(help: ArgumentHelp("One frame every TIME instead: seconds (10, 10s) or [[h:]m:]s.", valueName: "time"),
            transform: TimeArguments.step)
    var every: Double?

    @Option(help: ArgumentHelp("The start of the range: seconds, [[h:]m:]s or a percentage (default: the start).", valueName: "time"),
            transform: TimeArguments.time)
    var from: TimeSpec?

    @Option(help: ArgumentHelp("The end of the range (default: the end).", valueName: "time"), transform: TimeArguments.time)
    var to: TimeSpec?

    @Flag(help: "The exact frame at each time instead of the keyframe before it (slower).")
    var exact = false

    @Flag(help: "The keyframe before each time even where keyframes are sparser than the cells and repeat (by default those cells get their exact frames).")
    var keyframe = false

    @Option(help: ArgumentHelp("Cells a sheet, columns x rows, or 'none' for one picture a frame.", valueName: "CxR|none"))
    var tile: TileArgument = TileArgument(argument: "10x10")!

    @Option(help: ArgumentHelp("The WebVTT file to write (one input only); the pictures go beside it.", valueName: "file"), completion: .file())
    var vtt: String?

    @Option(help: ArgumentHelp("Also write a page that shows the storyboard at work: the video, and a seek bar that previews the time under the pointer (one input only; FILE?t=12.5 shows 12.5 s).", valueName: "file"), completion: .file())
    var html: String?

    @Option(help: ArgumentHelp("Put this before each picture's name in the WebVTT file (default: names relative to it).", valueName: "url"))
    var vttBase: String?

    @OptionGroup var folder: OutputFolderOptions

    @OptionGroup var frames: FrameOptions<StoryboardFrameHelp>

    @OptionGroup var encoding: EncodingOptions<StoryboardEncodingHelp>

    @OptionGroup var batch: BatchOptions

    @OptionGroup var limits: LimitOptions

    @OptionGroup var jobs: JobOptions

    @OptionGroup var sandbox: SandboxOptions

    func validate() throws {
        try batch.validate(inputs: inputs, missing: "Give at least one video.")
        try InputList.refuseEmpty([("--vtt", vtt), ("--html", html), ("--out-dir", folder.outDir)])
        if inputs.contains("-") { throw ValidationError("A storyboard reads its video more than once: give a file, not standard input.") }
        if count != nil && every != nil { throw ValidationError("Give --count or --every, not both.") }
        if exact && keyframe { throw ValidationError("Give --exact or --keyframe, not both.") }
        if let count, count < 1 || count > FrameSchedule.maxFrames {
            throw ValidationError("--count takes 1 to \(FrameSchedule.maxFrames) frames, the most a storyboard holds, not \(count).")
        }
        if vtt != nil && folder.outDir != nil { throw ValidationError("Give --vtt or --out-dir, not both.") }
        if let html, html == "-" { throw ValidationError("--html takes a file.") }
        if let vtt, vtt == "-" { throw ValidationError("--vtt takes a file: the pictures are written beside it.") }
    }

    func run() throws {
        var options = StoryboardOptions()
        options.selection = every.map { .every($0) } ?? .count(count ?? 100)
        options.from = from
        options.to = to
        options.mode = exact ? .exact : .keyframe
        options.keyframesMayRepeat = keyframe
        options.tiling = tile.tiling
        options.maxWidth = frames.width
        options.maxHeight = frames.height
        options.appliesOrientation = !frames.noRotate
        options.deinterlaces = !frames.noDeinterlace
        options.videoStream = frames.videoStream
        options.format = encoding.format ?? .jpeg
        try encoding.check(for: options.format, canKeepJPEGBlocks: false)
        options.encoding = encoding.settings
        options.output = OutputPolicy(overwrite: folder.overwrite, isNamedByUser: vtt != nil)
        options.limits = limits.runLimits()
        options.urlBase = vttBase
        let html = html
        let sandboxRun = sandbox.begin(limits: limits)
        let listed = try batch.inputs(inputs, extensions: SearchedExtensions.videos)
        if vtt != nil && listed.count != 1 {
            throw ValidationError("--vtt names one storyboard: use --out-dir for \(listed.count) inputs.")
        }
        if html != nil && listed.count != 1 {
            throw ValidationError("--html shows one storyboard: give one input.")
        }
        var plan = OutputPlan(explicitPath: vtt, directory: folder.outDir, template: "{stem}.vtt")
        plan.collisionRemedy = "a storyboard is named after its video: give them one at a time with --vtt NAME"
        let videos: [BatchInput]
        do {
            videos = try plan.check(listed)
        } catch {
            throw ValidationError("\(error)")
        }
        // The page is named by the user, so it can be checked against every input before any work.
        RunInputs.register(paths: videos.map(\.path))
        if let html, RunInputs.contains(path: html) { throw ValidationError("\(OutputError.wouldOverwriteInput(path: html))") }
        try sandboxRun.runBatch(videos, plan: plan, jobs: jobs, spec: .storyboard(options, html: html),
                                serving: batch.serve ? batch.selection(extensions: SearchedExtensions.videos) : nil)
    }
}
