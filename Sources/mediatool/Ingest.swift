import MediaFormats
import ArgumentParser
import Batch
import FileIO
import ImageCodecs
import Imaging
import Ingest
import WebVideo
import Jobs
import Reporting

struct Ingest: ParsableCommand, DecodesInWorkers {
    static let configuration = CommandConfiguration(
        abstract: "Make everything a site needs of each upload in one run, under --out-dir DIR: its probe, renditions, a video's storyboard, preview and web video, placeholders and hashes, and a manifest listing them.",
        discussion: """
            Each input is opened once. A picture is decoded once, at the smallest scale that \
            serves its largest rendition, and every rendition, the placeholders (ThumbHash, \
            BlurHash) and the perceptual hashes (dHash, pHash, as the ImageHash library computes \
            them) come from that decode, upright and in sRGB. A video's renditions, placeholders \
            and hashes are of its poster frame (--at auto's), and it also gets a storyboard, a \
            hover preview and, where browsers cannot play it as uploaded (not H.264 in an MP4 \
            with AAC, HDR, rotated, over 1080p, its index last, interlaced, cut short), the web \
            video transcode makes: IMG_0001.MOV.web.mp4, or with the recipe's "web_video": \
            {"hls": true} an HLS ladder. Then every frame is decoded once, for all of them.

            Without --recipe: WordPress's six sizes (thumbnail 150x150 filled where the attention \
            is, medium 300, medium_large 768 wide, large 1024, 1536x1536, 2048x2048, never \
            enlarged) as JPEG at quality 82 (a recipe's "format" or "formats" makes PNG, WebP or \
            AVIF, or several of them from one reduction for a <picture>); for a video, its poster in those sizes, a storyboard \
            and a preview as those subcommands make them, and its web video; both placeholders \
            and both hashes. A recipe (JSON) changes any of it ("web_video": false turns the \
            video off): its keys are in docs/ingest.md.

            Each input's outputs go under --out-dir at its relative path: IMG_0001.HEIC.medium.jpg... \
            and IMG_0001.HEIC.json, the manifest: the probe's fields, then renditions (name, \
            path, file, width, height, format, mime, bytes; a web video's codecs, milliseconds and \
            why it was made, or plays_as_uploaded), placeholder {thumbhash, blurhash} and hash \
            {dhash, phash}. --json prints it as one line for each input on standard output too. \
            All of an input's outputs appear together, the manifest last, or none do; with \
            --skip-existing an input whose manifest is there is skipped, and renditions found \
            without one are kept. The manifest holds the GPS position only with --location keep.

            Examples:
              mediatool ingest --out-dir site/ uploads/
              mediatool ingest --recipe recipe.json --out-dir site/ --json IMG_0001.HEIC

            Exit status: 0 when every input was ingested, 1 when any failed, 64 for usage errors.
            """
    )

    @Argument(help: "Photos and videos, and folders of them.", completion: .file())
    var inputs: [String] = []

    @Option(help: ArgumentHelp("The recipe: a JSON file of renditions, storyboard, preview, web video, placeholders, hashes and names (default: WordPress's sizes, all of the rest).", valueName: "file"), completion: .file())
    var recipe: String?

    @OptionGroup var location: LocationOption

    @OptionGroup var folder: OutputFolderOptions

    @OptionGroup var batch: BatchOptions

    @OptionGroup var limits: LimitOptions

    @OptionGroup var jobs: JobOptions

    @OptionGroup var sandbox: SandboxOptions

    func validate() throws {
        try batch.validate(inputs: inputs, missing: "Give at least one photo or video.")
        try InputList.refuseEmpty([("--recipe", recipe), ("--out-dir", folder.outDir)])
        guard folder.outDir != nil else {
            throw ValidationError("ingest writes many files for each input: give --out-dir DIR.")
        }
        if inputs.contains("-") { throw ValidationError("ingest reads its input more than once and names outputs after it: give a file, not standard input.") }
    }

    func run() throws {
        let recipe = try readRecipe()
        var options = IngestOptions(recipe: recipe)
        options.limits = limits.runLimits()
        options.output = OutputPolicy(overwrite: folder.overwrite, isNamedByUser: false)
        options.includesGPS = location.keeps(byDefault: false)
        let least = recipe.leastMemory
        if least.bytes > options.limits.maxMemory {
            throw ValidationError("\(self.recipe.map { "--recipe \($0): the recipe's" } ?? "the default recipe's") \(least.what) needs \(DecodeLimitError.mebibytes(least.bytes)), over --max-memory \(DecodeLimitError.mebibytes(options.limits.maxMemory, roundingUp: false))")
        }
        // Audio too: its manifest holds its probe, and renditions of its cover art where it has one.
        let extensions = SearchedExtensions.media
        let sandboxRun = sandbox.begin(limits: limits, starting: [StartingDecoders.guess(inputs, filesFrom: batch.filesFrom != nil)])
        let templates = recipe.outputs.map(\.template)
        let ladderOwner: ((String) -> String?)? = recipe.webVideo?.hls == true ? { HLSNames.master(ofRendition: $0) } : nil
        let (plan, files, ownOutputs) = try OutputOptions.plan(
            output: nil, outDir: folder.outDir, name: nil, for: inputs, extensions: extensions, batch: batch,
            // Each variant is a whole name: the template only places it.
            defaultTemplate: "{size}", variants: templates, firstMarksCompletion: true,
            collisionRemedy: "the recipe's names can tell them apart: {stem}, {ext} and {dir} are the input's name, extension and folder (e.g. \"names\": {\"manifest\": \"{dir}-{stem}.{ext}.json\", ...})",
            // An HLS ladder's renditions found in a folder the run writes, where its master lists them.
            sideOutputOwner: ladderOwner, sideOutputIsKnown: HLSNames.isListed)
        let apart: (inputs: [BatchInput], passedOver: Int)
        do {
            apart = try IngestPlan.keepingSheetsApart(files, plan: plan, recipe: recipe)
        } catch {
            throw ValidationError(Diagnostics.printable(error.description))
        }
        // A Live Photo's still and video, ingested in one run, are linked in both manifests once both are written.
        let manifests = apart.inputs.filter { $0.problem == nil }.map { plan.output(for: $0) }
        try sandboxRun.runBatch(apart.inputs, plan: plan, jobs: jobs, ownOutputs: ownOutputs + apart.passedOver, spec: .ingest(options),
                                serving: batch.serve ? batch.selection(extensions: extensions) : nil) {
            for warning in LivePhotoLinks.link(manifests, policy: options.output).warnings {
                Diagnostics.raw("mediatool: \(Diagnostics.printable(warning))\n")
            }
        }
    }

    /// `--recipe`'s, checked whole before any input is read; else the standard recipe.
    func readRecipe() throws -> IngestRecipe {
        guard let path = recipe else { return .standard }
        let text: [UInt8]
        do {
            let file = try InputFile(path: path)
            guard file.isRegular, let size = file.size else { throw ValidationError("--recipe \(path): not a regular file.") }
            guard size <= IngestRecipe.largestText else {
                throw ValidationError("--recipe \(path): \(size) bytes, more than a recipe's \(IngestRecipe.largestText).")
            }
            text = try file.contents()
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("--recipe \(path): \(error)")
        }
        do {
            return try IngestRecipe.read(text)
        } catch {
            throw ValidationError("--recipe \(path): \(error)")
        }
    }
}
