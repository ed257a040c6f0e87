import Foundation
internal import Batch
internal import FileIO
internal import Ingest
internal import Jobs
internal import JSON
internal import Sandbox
internal import VideoThumbnails

/// What `MediaIngester` makes of each upload: renditions, a video's storyboard and preview,
/// placeholders, hashes, and their names; the JSON recipe of `mediatool ingest --recipe`.
public struct MediaIngestRecipe: Sendable {
    let recipe: IngestRecipe

    /// WordPress's six sizes (`thumbnail` 150x150 filled where the attention is, `medium` 300,
    /// `medium_large` 768 wide, `large` 1024, `1536x1536`, `2048x2048`; never enlarged; JPEG at
    /// quality 82), for a video its poster in them, a storyboard and a preview; both placeholders
    /// and both hashes.
    public static let standard = MediaIngestRecipe(recipe: .standard)

    /// A recipe from its JSON text (the keys of the command line's docs/ingest.md). Every mistake
    /// is `.invalidRequest`, naming its place in the recipe.
    public init(json: Data) throws(MediaError) {
        do {
            recipe = try IngestRecipe.read(Array(json))
        } catch {
            throw .invalidRequest(file: "recipe", reason: error.description)
        }
    }

    init(recipe: IngestRecipe) {
        self.recipe = recipe
    }
}

/// One output of an upload: a rendition, a video's storyboard (its WebVTT file) or its preview.
public struct MediaIngestOutput: Sendable, Equatable {
    /// The recipe's name for it (`storyboard` and `preview` for a video's).
    public let name: String
    /// Where it was written; nil for one kept from an earlier call.
    public let url: URL?
    public let width: Int
    public let height: Int
    /// `jpeg`, `png`, `webp`, `vtt` or `mp4`.
    public let format: String
    /// Its size in bytes; nil for one kept, and for a storyboard (its sheets are files of their own).
    public let bytes: Int?
}

/// Everything `MediaIngester` made of one upload.
public struct MediaIngestResult: Sendable {
    /// The manifest: the JSON object `mediatool ingest` writes, beside the outputs.
    public let manifest: URL
    /// What the upload is (the probe's report, without its warnings).
    public let probe: ProbeReport
    public let outputs: [MediaIngestOutput]
    /// ThumbHash's bytes in base64, and BlurHash; nil when the recipe asks for none (and for audio).
    public let thumbHash: String?
    public let blurHash: String?
    /// ImageHash's dHash and pHash, 16 hex digits each; nil likewise.
    public let differenceHash: String?
    public let perceptualHash: String?
    /// Things done other than asked, each one line.
    public let warnings: [String]
}

/// Everything a site needs from an upload, from one open of it: the command line's `ingest`. A
/// picture is decoded once for every rendition and digest; a video's preview frames come from its
/// storyboard's pass. In the call's sandbox (`MediaConfiguration.sandbox`) like every decode.
public struct MediaIngester: Sendable {
    public var configuration: MediaConfiguration
    public var recipe: MediaIngestRecipe
    /// Where it was taken, in the probe's report; left out unless set, as from every output.
    public var includesGPS = false
    /// Replaces outputs that are there; by default an output that exists fails the call.
    public var overwrite = false

    public init(recipe: MediaIngestRecipe = .standard, configuration: MediaConfiguration = MediaConfiguration()) {
        self.recipe = recipe
        self.configuration = configuration
    }

    /// Writes `source`'s outputs into `folder` (made if missing), named by the recipe after the
    /// source's name, all together or none; the manifest last.
    public func ingest(_ source: MediaSource, into folder: URL) async throws(MediaError) -> MediaIngestResult {
        var options = IngestOptions(recipe: recipe.recipe)
        options.limits = configuration.limits
        options.threads = configuration.threadCount
        options.includesGPS = includesGPS
        options.output = OutputPolicy(overwrite: overwrite, isNamedByUser: false)
        let least = options.recipe.leastMemory
        if least.bytes > configuration.maxMemory {
            throw .overLimit(file: source.name, reason: "the recipe's \(least.what) needs more than maxMemory")
        }
        let (configuration, spec, templates) = (configuration, JobSpec.ingest(options), options.recipe.outputs.map(\.template))
        let ingester = Ingester(options: options)
        let cancellation = try? JobCancellation()
        return try await BlockingWork.run(file: source.name, on: configuration.pool, cancellation: cancellation) { isCancelled in
            let file = try source.open(recognise: Thumbnailer.recognise, stop: SandboxedCalls.stop(configuration, isCancelled: isCancelled))
            let path: String
            if case .path(let given) = source.storage { path = given == "-" ? "./-" : given } else { path = "/proc/self/fd/\(file.descriptor)" }
            // Named after the source's name, as the command line names an input's outputs.
            let name = source.name.split(separator: "/").last.map(String.init) ?? source.name
            var plan = OutputPlan(directory: folder.path, template: "{size}")
            plan.variants = templates
            let input = try plan.check([BatchInput(path: path, relativePath: name)])[0]
            if let problem = input.problem { throw MediaError.invalidRequest(file: source.name, reason: problem) }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let planned = plan.outputs(for: input)
            let runner = try WorkerRegistry.runner(for: configuration)
            let report = try withExtendedLifetime(file) {
                try runner.run(ingester.job, spec: try JobRunner.Spec(spec), input: path, outputs: planned,
                               threads: configuration.threadCount, cancellation: cancellation)
            }
            return try MediaIngestResult(report, manifest: URL(fileURLWithPath: planned[0].path))
        }
    }
}

extension MediaIngestResult {
    /// The job's report, which is the manifest (the command line's line), read back: its probe's
    /// fields as `ProbeReport` decodes the probe line, the rest by `IngestLine`'s types.
    init(_ report: JobReport, manifest: URL) throws {
        self.manifest = manifest
        probe = try ProbeReport(line: report.fields, warnings: [])
        let members = JSONValue.object(report.fields.map { JSONMember($0.name, $0.value) })
        guard let line = try? JSONValueDecoder.decode(IngestLine.self, from: members) else { throw WorkerFailure.malformedReply }
        outputs = line.renditions.map { entry in
            MediaIngestOutput(name: entry.name, url: entry.path.map { URL(fileURLWithPath: $0) }, width: entry.width ?? 0,
                              height: entry.height ?? 0, format: entry.format ?? "", bytes: entry.bytes)
        }
        thumbHash = line.placeholder?.thumbhash
        blurHash = line.placeholder?.blurhash
        differenceHash = line.hash?.dhash
        perceptualHash = line.hash?.phash
        warnings = report.warnings
    }
}

/// What the ingest line holds beside the probe's fields (docs/ingest.md's manifest).
private struct IngestLine: Decodable {
    struct Rendition: Decodable {
        let name: String
        let path: String?
        let width: Int?
        let height: Int?
        let format: String?
        let bytes: Int?
    }

    struct Placeholders: Decodable {
        let thumbhash: String?
        let blurhash: String?
    }

    struct Hashes: Decodable {
        let dhash: String?
        let phash: String?
    }

    let renditions: [Rendition]
    let placeholder: Placeholders?
    let hash: Hashes?
}
