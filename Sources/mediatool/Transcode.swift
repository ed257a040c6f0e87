import ArgumentParser
import Batch
import Jobs
import MediaFormats
import WebVideo

enum TranscodeFrameHelp: FrameHelp {
    static let width = "Fit the picture inside this width (upright): a larger video is scaled down, never up."
    static let height = "Fit the picture inside this height (default 1080 when no --width is given): scaled down, never up."
    static let deinterlace = "Keep interlaced frames' fields woven, instead of deinterlacing them."
    static let stream = "The video stream, counted from 0 among the file's video streams."
}

struct Transcode: ParsableCommand, DecodesInWorkers {
    static let configuration = CommandConfiguration(
        abstract: "Write each video as the MP4 every browser plays: H.264 and AAC, upright, SDR, moov first.",
        discussion: """
            The video is H.264 High (8-bit 4:2:0, BT.709, tagged so) fitted inside --width and \
            --height (1080 lines by default; a smaller video keeps its size, and each side is even), each \
            frame made as thumbnail makes one: turned upright by the display matrix (none is left \
            to honour), square pixels at display aspect, deinterlaced, HDR (HLG, PQ, Dolby Vision \
            with an HLG or HDR10 base) tone mapped to SDR. Each frame keeps its own time, so a \
            variable frame rate stays variable. The sound, where there is any, is the main track \
            as AAC-LC (64 kb/s a channel; more than two channels mixed down to stereo), starting \
            where the file says it starts beside the first frame and ending with the last. The \
            file's moov comes before its media data, so a browser plays it as it arrives. Only \
            the creation time is kept of the source's metadata: no location, no camera.

            A video that is already H.264 in MP4 is made again all the same: one predictable \
            rendition, not whatever the upload was. Where a copy of the streams is wanted \
            instead, use ffmpeg -c copy -movflags +faststart.

            CLIP.mov gives CLIP.web.mp4 beside it, or -o FILE (one input; - for standard output, \
            written as a fragmented MP4), or --out-dir DIR.

            --hls DIR: an HLS ladder from the one decode, in DIR: the master playlist \
            CLIP.m3u8 (BANDWIDTH, AVERAGE-BANDWIDTH, RESOLUTION and CODECS of each rendition, \
            largest first; --name names it) and, for each rendition, CLIP.720p.mp4, a fragmented \
            MP4 that plays on its own too, and CLIP.720p.m3u8, its segments by byte range. The \
            renditions go by the picture's shorter side (a portrait clip's width): the largest \
            at the video's own size, at most 1080 and inside --width and --height if given, \
            then 720, 480 and 360 below it. Segments start at the first frame 4 s after the \
            last segment's start, at the same frames in every rendition, each with a keyframe \
            (there are no others).

            --timeout: a video takes as long as it takes to encode; the limit ends a video that \
            is stuck (no frame for that long), not a long one.

            Progress: on a terminal, a line with the part done, the speed (2.0x: two seconds \
            of video a second) and the time left. With --json, a line a second for each video \
            under way before its result: {"input": ..., "status": "progress", "frames": N, \
            "seconds": made, "duration": the file's stated length or null, "percent": 0-99 or \
            null}; a server reads "status" to tell the two apart.

            Examples:
              mediatool transcode clip.mov
              mediatool transcode --height 720 --crf 26 --out-dir web/ uploads/
              mediatool transcode --preset medium clip.mp4 -o clip.web.mp4
              mediatool transcode --hls site/video/ clip.mov

            Exit status: 0 when every input gave a video, 1 when any failed, 64 for usage errors.
            """
    )

    @Argument(help: "Video files, and folders of them.", completion: .file())
    var inputs: [String] = []

    @OptionGroup var frames: FrameOptions<TranscodeFrameHelp>

    @Option(help: ArgumentHelp("libx264's preset, ultrafast to veryslow: its speed against the bytes a quality takes.", valueName: "preset"))
    var preset: String = "veryfast"

    @Option(help: ArgumentHelp("libx264's constant rate factor, 0 to 51: lower is better and larger (23 is x264's own default; 18 looks lossless).", valueName: "crf"))
    var crf: Double = 23

    @Option(help: ArgumentHelp("The longest video made, in seconds (14400: 4 hours): a longer one is refused when its frames pass it.", valueName: "seconds"))
    var maxDuration: Double = 14400

    @Flag(help: "Leave the sound out.")
    var noSound = false

    @Option(help: ArgumentHelp("Write an HLS ladder to this folder instead of one MP4: CLIP.m3u8 and, for each rendition, CLIP.720p.mp4 and CLIP.720p.m3u8.", valueName: "dir"),
            completion: .directory)
    var hls: String?

    @OptionGroup var outputs: OutputOptions

    @OptionGroup var batch: BatchOptions

    @OptionGroup var limits: LimitOptions

    @OptionGroup var jobs: JobOptions

    @OptionGroup var sandbox: SandboxOptions

    func validate() throws {
        try batch.validate(inputs: inputs, missing: "Give at least one video.")
        if inputs.contains("-") { throw ValidationError("A video is read twice (its picture and its sound): give a file, not standard input.") }
        for (name, side) in [("--width", frames.width), ("--height", frames.height)] {
            if let side, !(2...8192).contains(side) { throw ValidationError("\(name) takes 2 to 8192 pixels.") }
        }
        guard TranscodeOptions.presets.contains(preset) else {
            throw ValidationError("--preset takes one of x264's: \(TranscodeOptions.presets.joined(separator: ", ")).")
        }
        guard crf >= 0, crf <= 51 else { throw ValidationError("--crf takes 0 to 51.") }
        guard maxDuration > 0, maxDuration.isFinite else { throw ValidationError("--max-duration takes seconds above 0.") }
        if outputs.writesToStandardOutput && jobs.json { throw ValidationError("-o - and --json both write to standard output.") }
        if hls != nil {
            if outputs.output != nil || outputs.outDir != nil { throw ValidationError("--hls names the ladder's folder: give it without -o or --out-dir.") }
            try InputList.refuseEmpty([("--hls", hls)])
            if let name = outputs.name, !name.hasSuffix(".m3u8") || name.hasSuffix("/.m3u8") || name == ".m3u8" {
                throw ValidationError("--name with --hls names the master playlist: a name that ends with .m3u8.")
            }
        }
        if outputs.name?.contains("{size}") == true { throw ValidationError("--name's {size} is thumbnail's: a web video has one size.") }
    }

    func run() throws {
        var options = TranscodeOptions()
        // 1080 lines unless a box is given (a ladder's largest rendition is 1080 on its shorter side).
        options.maxWidth = frames.width
        options.maxHeight = frames.height ?? (frames.width == nil && hls == nil ? 1080 : nil)
        options.makesLadder = hls != nil
        options.preset = preset
        options.crf = crf
        options.maxSeconds = maxDuration
        options.keepsSound = !noSound
        options.appliesOrientation = !frames.noRotate
        options.deinterlaces = !frames.noDeinterlace
        options.videoStream = frames.videoStream
        options.output = outputs.policy
        options.limits = limits.runLimits()
        let sandboxRun = sandbox.begin(limits: limits)
        let (plan, videos, ownOutputs) = if let hls {
            try OutputOptions.plan(output: nil, outDir: hls, name: outputs.name, for: inputs, extensions: SearchedExtensions.videos,
                                   batch: batch, defaultTemplate: "{stem}.m3u8", sideOutputOwner: HLSNames.master(ofRendition:),
                                   sideOutputIsKnown: HLSNames.isListed(_:in:))
        } else {
            try outputs.plan(for: inputs, extensions: SearchedExtensions.videos, batch: batch,
                             defaultTemplate: OutputPlan.defaultTemplate(suffix: "web", fileExtension: "mp4"))
        }
        try sandboxRun.runBatch(videos, plan: plan, jobs: jobs, ownOutputs: ownOutputs, spec: .transcode(options),
                                serving: batch.serve ? batch.selection(extensions: SearchedExtensions.videos) : nil)
    }
}
