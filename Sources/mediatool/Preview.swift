import MediaFormats
import Jobs
import ArgumentParser
import Batch
import FFmpeg
import Previews
import Reporting
import Sandbox

extension PreviewFormat: ExpressibleByArgument {}

enum PreviewFrameHelp: FrameHelp {
    static let width = "Fit the frames inside this width (default 320 when no --height is given); a smaller video keeps its size."
    static let height = "Fit the frames inside this height."
    static let deinterlace = "Keep interlaced frames' fields woven, instead of deinterlacing them."
    static let stream = "The video stream, counted from 0 among the file's video streams."
}

struct Preview: ParsableCommand, DecodesInWorkers {
    static let configuration = CommandConfiguration(
        abstract: "Write a few seconds of each video as a silent loop, the hover preview of video sites: an animated WebP, or an H.264 MP4.",
        discussion: """
            The preview is --segments pieces of --segment-length seconds (4 of 1 s by default), \
            one in each equal share of the video, starting on the keyframe nearest its middle, or \
            one stretch from --from to --to; at \
            --fps frames a second (10 by default), each the exact frame at its time, upright, at \
            display aspect, HDR tone mapped and deinterlaced as thumbnails are, fitted inside \
            --width (320 by default) and --height. One pass over the file: the pieces are reached \
            by seeking to their keyframes where there is an index, and each frame is decoded \
            once. A video shorter \
            than the pieces together is shown whole. The animation loops forever.

            CLIP.mp4 gives CLIP.preview.webp beside it (CLIP.preview.mp4 with --format mp4: \
            H.264 for <video muted autoplay loop>), or -o FILE (one input) or --out-dir DIR. \
            --max-bytes tries lower qualities (60, 45, 30, 15) until the file fits, and fails \
            naming the smallest size reached when none does.

            Examples:
              mediatool preview clip.mp4
              mediatool preview --segments 6 --segment-length 0.5 clip.mov -o hover.webp
              mediatool preview --from 1:10 --to 1:14 --fps 15 clip.mkv
              mediatool preview --max-bytes 500K --out-dir previews/ uploads/
              mediatool preview --format mp4 clip.mp4

            Exit status: 0 when every input gave a preview, 1 when any failed, 64 for usage errors.
            """
    )

    @Argument(help: "Video files, and folders of them.", completion: .file())
    var inputs: [String] = []

    @Option(help: "Pieces spread over the video, 1 to 1000 (default 4).")
    var segments: Int?

    @Option(help: ArgumentHelp("Each piece's length in seconds, up to 3600 (default 1).", valueName: "seconds"))
    var segmentLength: Double?

    @Option(help: ArgumentHelp("One stretch instead of the pieces, from this time: seconds, [[h:]m:]s or a percentage.", valueName: "time"),
            transform: TimeArguments.time)
    var from: TimeSpec?

    @Option(help: ArgumentHelp("The end of that stretch (default: the end of the video).", valueName: "time"), transform: TimeArguments.time)
    var to: TimeSpec?

    @Option(help: ArgumentHelp("Frames a second, from 0.1: up to 50 for WebP (browsers show a frame of 10 ms or less for 100 ms), 120 for MP4.", valueName: "fps"))
    var fps: Double = 10

    @OptionGroup var frames: FrameOptions<PreviewFrameHelp>

    @Option(help: ArgumentHelp("The file's format: webp (an animated picture), or mp4 (H.264 video, for <video muted autoplay loop>); default: from the extension of -o or --name, else webp.", valueName: "format"))
    var format: PreviewFormat?

    @Option(help: "Quality, 1 to 100: lossy WebP's, or libx264's CRF 51 - 0.4 x quality for MP4.")
    var quality: Int = 75

    @Option(help: ArgumentHelp("The most bytes a preview may take: lower qualities are tried until it fits (512K, 2M).", valueName: "bytes"))
    var maxBytes: ByteCount?

    @OptionGroup var outputs: OutputOptions

    @OptionGroup var batch: BatchOptions

    @OptionGroup var limits: LimitOptions

    @OptionGroup var jobs: JobOptions

    @OptionGroup var sandbox: SandboxOptions

    func validate() throws {
        try batch.validate(inputs: inputs, missing: "Give at least one video.")
        if inputs.contains("-") { throw ValidationError("A preview seeks through its video: give a file, not standard input.") }
        if let segments, !(1...1000).contains(segments) { throw ValidationError("--segments takes 1 to 1000.") }
        if let segmentLength, !(segmentLength > 0 && segmentLength <= 3600) { 
            throw ValidationError("--segment-length takes seconds above 0, up to 3600.")
        }
        guard PreviewSchedule.fpsRange.contains(fps) else {
            throw ValidationError("--fps takes frames a second from 0.1 (a frame every 10 s) up to 50 for WebP and 120 for MP4, not \(fps).")
        }
        guard (1...100).contains(quality) else { throw ValidationError("--quality takes 1 to 100.") }
        if from != nil || to != nil, segments != nil || segmentLength != nil {
            throw ValidationError("--from/--to give one stretch; --segments and --segment-length spread pieces over the whole video: give one or the other.")
        }
        if outputs.writesToStandardOutput && jobs.json { throw ValidationError("-o - and --json both write to standard output.") }
        if outputs.name?.contains("{size}") == true { throw ValidationError("--name's {size} is thumbnail's: a preview has one size.") }
        if case .seconds(let start)? = from, case .seconds(let end)? = to, end <= start {
            throw ValidationError("--to must come after --from: \(SecondsText.of(start)) to \(SecondsText.of(end)) holds no frames.")
        }
    }

    func run() throws {
        var options = PreviewOptions()
        options.segments = segments ?? options.segments
        options.segmentLength = segmentLength ?? options.segmentLength
        options.fps = fps
        options.from = from
        options.to = to
        options.maxWidth = frames.width ?? (frames.height == nil ? 320 : nil)
        options.maxHeight = frames.height
        options.appliesOrientation = !frames.noRotate
        options.deinterlaces = !frames.noDeinterlace
        options.videoStream = frames.videoStream
        options.quality = quality
        options.maxBytes = maxBytes?.bytes
        options.format = try outputs.format(chosen: format, fallback: .webp)
        if options.format == .webp && fps > 50 {
            throw ValidationError("--fps \(fps) would show each frame for less than 20 ms, which browsers show for 100 ms: at most 50 for WebP (--format mp4 takes up to 120).")
        }
        options.output = outputs.policy
        options.limits = limits.runLimits()
        let sandboxRun = sandbox.begin(limits: limits)
        let (plan, videos, ownOutputs) = try outputs.plan(
            for: inputs, extensions: SearchedExtensions.videos, batch: batch,
            defaultTemplate: OutputPlan.defaultTemplate(suffix: "preview", fileExtension: options.format.fileExtension))
        try sandboxRun.runBatch(videos, plan: plan, jobs: jobs, ownOutputs: ownOutputs, spec: .preview(options),
                                serving: batch.serve ? batch.selection(extensions: SearchedExtensions.videos) : nil)
    }
}
