import MediaFormats
import Jobs
import ArgumentParser
import FFmpeg
import Batch
import FileIO
import Glibc
import ImageCodecs
import MediaProbe
import Sandbox

/// How probe's report is written.
enum ProbeFormat: String, ExpressibleByArgument, CaseIterable {
    case json, table
}

struct Probe: ParsableCommand, DecodesInWorkers {
    static let configuration = CommandConfiguration(
        abstract: "What each picture, video or sound file is, in one JSON line: size as shown, duration, HDR, date, place.",
        discussion: """
            Reads headers and indexes only (no frame is decoded unless --deep): the size as shown \
            (EXIF and HEIF orientation, the display matrix and pixel aspect applied, the size thumbnail \
            and crop write), the coded size, rotation, duration, frame rate and count, codecs, bit \
            depth, HDR (PQ, HLG, Dolby Vision), sound and subtitle streams, ICC profile, and when, \
            where and with what it was taken (EXIF, QuickTime). Every field is in every line of a file probed, null \
            where it does not apply; docs/probe.md lists them.

            JSON Lines on standard output (one object per input, as each finishes: input, status, \
            error, then the fields; a failed input's line has the first three only), or a table when \
            standard output is a terminal; --format chooses. --max-pixels and --max-memory hold for \
            what --deep decodes: a header says a picture's size whatever it is.

            Examples:
              mediatool probe IMG_0001.HEIC clip.mov
              mediatool probe --recursive uploads/ --location remove > facts.jsonl
              mediatool probe --deep --format table suspicious.mp4

            Exit status: 0 when every input was probed, 1 when any failed, 64 for usage errors.
            """
    )

    @Argument(help: "Pictures, videos and sound files, and folders of them.", completion: .file())
    var inputs: [String] = []

    @Option(help: ArgumentHelp("json (one JSON object a line) or table (for a person); default: table when standard output is a terminal, else json.", valueName: "json|table"))
    var format: ProbeFormat?

    @Flag(help: "The same as --format json.")
    var json = false

    @Flag(help: "Also decode the picture or the first frame (and count a video's frames by reading every packet): a file that does not decode fails.")
    var deep = false

    @OptionGroup var location: LocationOption

    @OptionGroup var limits: LimitOptions

    @OptionGroup var batch: BatchOptions

    @Option(name: .shortAndLong, help: "Inputs worked on at once (default: the number of cores).")
    var jobs: Int?

    @Flag(help: "No progress bar and no summary.")
    var quiet = false

    @OptionGroup var sandbox: SandboxOptions

    /// What a folder is searched for: every picture and media extension thumbnail takes.
    static var extensions: Set<String> { SearchedExtensions.media }

    /// The pictures first, then the videos, by their names: the pictures are read while the
    /// zygote loads FFmpeg for the videos (30 to 40 ms), where videos among them would have held
    /// every thread waiting for it. Lines come as inputs finish anyway.
    static func picturesFirst(_ inputs: [BatchInput]) -> [BatchInput] {
        inputs.filter { !isVideo($0) } + inputs.filter(isVideo)
    }

    /// Whether an input is a video, by its name: what no picture reader takes.
    static func isVideo(_ input: BatchInput) -> Bool {
        let name = input.path.split(separator: "/").last.map(String.init) ?? input.path
        return !PictureFormat.readableExtensions.contains(name.split(separator: ".").last.map { $0.lowercased() } ?? "")
    }

    static func videoCount(_ inputs: [BatchInput]) -> Int { inputs.reduce(0) { $0 + (isVideo($1) ? 1 : 0) } }

    /// The videos each worker with FFmpeg is worth: one more per this many.
    static let videosPerMediaWorker = 20

    func validate() throws {
        try batch.validate(inputs: inputs, missing: "Give at least one file.")
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more.") }
        if json && format == .table { throw ValidationError("--json and --format table exclude each other.") }
        if batch.serve && format == .table { throw ValidationError("--serve answers in JSON lines: --format table has no place beside it.") }
    }

    func run() throws {
        var options = ProbeOptions()
        options.deep = deep
        options.includesGPS = location.keeps(byDefault: true)
        options.limits = limits.runLimits()
        // Reading a video's header takes a fraction of loading FFmpeg: one worker has it at first
        // (every one with --deep, which decodes), and pictures go to the others.
        // probe's work is starting workers more than it is decoding. The inputs are listed first
        // (the zygote has been starting meanwhile), so that the run starts what they need: a
        // worker for pictures for each thread that will have one to read, where no --jobs or
        // --deep says otherwise, before the one with FFmpeg (the zygote makes them first, then
        // loads FFmpeg while they read the pictures).
        let workers = jobs ?? JobOptions.cores
        let listed = try batch.inputs(inputs, extensions: Self.extensions)
        let videos = Self.videoCount(listed)
        let forPictures = !deep && jobs == nil && workers > 1 ? min(workers, listed.count - videos) : 0
        // FFmpeg's worker where videos may come (names served later included);
        // else one for pictures, where none starts for the threads.
        let first: [JobDecoders] = if batch.serve || listed.isEmpty || videos > 0 { [.media] } else if forPictures == 0 { [.pictures] } else { [] }
        let sandboxRun = sandbox.begin(limits: limits, mediaWorkers: deep ? nil : 1,
                                       starting: first + Array(repeating: .pictures, count: forPictures))
        // One job at a time reports in the inputs' order.
        let files = workers > 1 && !deep ? Self.picturesFirst(listed) : listed
        // A second worker with FFmpeg is a copy of the zygote that loaded it (2 ms), worth it from
        // a few dozen videos: 200 uploads, 70 of them videos, took 0.096 s with two, 0.114 with one.
        if !deep, workers > 1 {
            sandboxRun.jobs?.allowMediaWorkers(min(workers, max(1, videos / Self.videosPerMediaWorker)))
        }
        let running = min(workers, files.count)
        let threads = running <= 1 ? 0 : max(1, JobOptions.cores / running)
        let spec = JobSpec.probe(options)
        let job = spec.job(threads: threads)
        let run = try sandboxRun.runner(threads: threads, spec: spec)
        var settings = BatchSettings(jobs: workers)
        settings.reportsJSON = true
        settings.reportsOutputs = false
        if (json ? .json : format ?? (isatty(STDOUT_FILENO) == 1 ? .table : .json)) == .table { settings.table = ProbeTable.layout }
        settings.showsProgress = !quiet && isatty(STDERR_FILENO) == 1 && isatty(STDOUT_FILENO) != 1
        settings.showsSummary = !quiet
        let perform: BatchEngine.Job = { file, _, _ in try run(job, file.path, [], nil) }
        let summary: BatchSummary
        if batch.serve {
            var serving = BatchSettings.serving
            serving.reportsOutputs = false
            summary = BatchEngine(settings: serving).serve(selection: batch.selection(extensions: Self.extensions), plan: nil, job: perform)
        } else {
            summary = BatchEngine(settings: settings).run(files, plan: nil, job: perform)
        }
        if summary.exitStatus != 0 { throw ExitCode(summary.exitStatus) }
    }
}
