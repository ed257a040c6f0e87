import ArgumentParser
import Batch
import FFmpeg
import FileIO
import Sandbox
import VideoThumbnails

extension HDRHandling: ExpressibleByArgument {}

struct Thumbnail: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a still image of each video at a time, as a player shows it.",
        discussion: """
            The picture is the exact frame shown at the time (decoded forward from the keyframe \
            before it), turned upright by the display matrix (rotations and flips), at its display \
            aspect (anamorphic pixels made square), with the stream's own YUV matrix and range. A \
            source with alpha gives an RGBA PNG. CLIP.mov is written to CLIP.thumb.png beside it, \
            or to -o FILE (one input) or --out-dir DIR.

            Times: seconds (35, 35.2), a timestamp (1:02.5, 00:01:02.500) or a percentage of the \
            duration (10%), counted from the first frame. A time past the end gives the last frame \
            and a warning. --at auto picks a poster frame worth showing (see --at).

            Examples:
              mediatool thumbnail clip.mov
              mediatool thumbnail --at 1:02.5 --width 320 clip.mp4 -o poster.jpg
              mediatool thumbnail --at 0 --keyframe --out-dir thumbs/ *.mkv

            Exit status: 0 when every input gave a thumbnail, 1 when any failed, 64 for usage errors.
            """
    )

    @Argument(help: "Video files, and folders of them.", completion: .file())
    var inputs: [String] = []

    // Parsed once, here: a transform, so that a wrong time says what a right one looks like.
    @Option(help: ArgumentHelp("The time: seconds, [[h:]m:]s[.fff], a percentage of the duration, or auto: a keyframe from 5% to 30% of the duration that is not black, white or flat, and closest to the average colours of the others (default: 10%).", valueName: "time"),
            transform: { text in
                guard let time = ThumbnailTime(parsing: text) else {
                    throw ValidationError("it takes seconds (35.2), a timestamp (1:02.5), a percentage (10%) or auto")
                }
                return time
            })
    var at: ThumbnailTime = .at(.fraction(0.1))

    @Flag(help: "The keyframe at or before the time instead of the exact frame (faster).")
    var keyframe = false

    @Option(help: ArgumentHelp("HDR (PQ, HLG) frames: tonemap to SDR, or keep as a 16-bit PNG with a cICP chunk that HDR viewers show as HDR.", valueName: "tonemap|keep"))
    var hdr: HDRHandling = .toneMap

    @Option(help: ArgumentHelp("PNG sample depth: 8, or 16 to keep 10 and 12-bit precision.", valueName: "8|16"))
    var depth: Int = 8

    @Flag(help: "Write the file's cover art (its attached picture: MP4 covr, MKV attachment, MP3/M4A artwork) instead of a frame; --cover=prefer writes it when there is one and a frame otherwise.")
    var cover = false

    /// `--cover=prefer`, which `MediaTool.main` spells this way for the parser.
    @Flag(name: .customLong("cover-prefer"), help: .hidden)
    var coverPrefer = false

    @OptionGroup var frames: FrameOptions<ThumbnailFrameHelp>

    @OptionGroup var encoding: EncodingOptions<ThumbnailEncodingHelp>

    @OptionGroup var outputs: OutputOptions

    @OptionGroup var batch: BatchOptions

    @OptionGroup var limits: LimitOptions

    @OptionGroup var jobs: JobOptions

    @OptionGroup var sandbox: SandboxOptions

    /// The formats a folder is searched for.
    static let videoExtensions: Set<String> = ["mp4", "m4v", "mov", "mkv", "webm", "ts", "mts", "m2ts", "avi", "3gp", "mpg", "mpeg", "wmv", "flv", "ogv"]
    /// With --cover, audio files with artwork too.
    static let audioExtensions: Set<String> = ["mp3", "m4a", "flac", "ogg", "opus", "mka"]

    func validate() throws {
        guard !inputs.isEmpty || batch.filesFrom != nil else { throw ValidationError("Give at least one video.") }
        try InputList.validate(inputs)
        if inputs.contains("-") && outputs.output == nil {
            throw ValidationError("Standard input has no name to make an output's from: give -o FILE (or -o -).")
        }
        guard depth == 8 || depth == 16 else { throw ValidationError("--depth takes 8 or 16.") }
        if outputs.writesToStandardOutput && jobs.json { throw ValidationError("-o - and --json both write to standard output.") }
    }

    func run() throws {
        let extensions = cover || coverPrefer ? Self.videoExtensions.union(Self.audioExtensions) : Self.videoExtensions
        var options = ThumbnailOptions()
        options.time = at
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
        if (hdr == .keep || depth == 16) && !options.format.descriptor.holds16Bit {
            let asked = hdr == .keep ? "--hdr keep" : "--depth 16"
            throw ValidationError("\(asked) writes 16-bit PNG: \(options.format.rawValue) holds 8 bits\(hdr == .keep ? " and no cICP chunk" : "").")
        }
        options.encoding = encoding.settings
        options.output = outputs.policy
        options.limits = limits.runLimits()
        if let worker = SandboxWorker.current {
            // A copy the closure holds: Swift 6.3's optimiser crashed on one capturing the variable.
            let settled = options
            worker.serve({ Thumbnailer(options: settled.threaded($0)).job }, maxMemory: limits.maxMemory.bytes, timeout: sandbox.timeout.value,
                         prepare: FFmpegLibraries.load)
        }
        let sandboxRun = sandbox.begin(maxMemory: limits.maxMemory.bytes)
        let (plan, videos, ownOutputs) = try outputs.plan(
            for: inputs, extensions: extensions, batch: batch,
            defaultTemplate: OutputPlan.defaultTemplate(suffix: "thumb", fileExtension: options.format.fileExtension))
        let threads = jobs.threadsPerWorker(inputs: videos.count)
        let job = Thumbnailer(options: options.threaded(threads)).job
        let run = sandboxRun.runner(threads: threads)
        let summary = BatchEngine(settings: jobs.settings(ownOutputs: ownOutputs)).run(videos, plan: plan) { video, output in
            try run(job, video.path, output!)
        }
        if summary.exitStatus != 0 { throw ExitCode(summary.exitStatus) }
    }
}
