import ArgumentParser
import Batch
import FileIO
import Jobs
import MetadataStripping

extension StripGroup: ExpressibleByArgument {}

struct Strip: ParsableCommand, DecodesInWorkers {
    static let configuration = CommandConfiguration(
        abstract: "Remove where and by whom from photos and videos, every pixel and sample kept.",
        discussion: """
            Removes the position (EXIF GPS, XMP and IPTC locations, QuickTime/MP4 ISO 6709 \
            coordinates and Apple's location keys, positions in timed-metadata tracks), serial numbers, the owner's name and maker \
            notes that can hold them (Apple's, which hold none, stay). Orientation, dates, the \
            colour profile, the pictures and the samples are kept byte for byte: only the bytes \
            of what is removed change, in place, so no offset in the file moves. JPEG, PNG, WebP, \
            HEIC/AVIF, TIFF and MP4/MOV; a Motion Photo's video and a JPEG's MPF pictures too. \
            Anything else is refused.

            Groups (--keep and --remove, each repeatable): location, serial, owner and makernotes \
            are removed unless kept; author (EXIF Artist, XMP dc:creator, IPTC by-lines) and \
            thumbnail (EXIF's embedded one) are kept unless removed.

            PHOTO.jpg is written to PHOTO.stripped.jpg beside it, to -o FILE (one input; -o - to standard output), under \
            --out-dir DIR with its own name, or with --in-place over itself: a new file takes its \
            name when it is whole, with its mode and owner (another hard link to the old file \
            keeps the old bytes; a symbolic link is refused, not followed). The report (--json: \
            a line each) names what was removed from each file.

            Examples:
              mediatool strip --in-place uploads/*.jpg
              mediatool strip --out-dir public/ --remove author originals/
              mediatool strip --keep location --json IMG_0001.HEIC -o shared.heic

            Exit status: 0 when every input was stripped, 1 when any failed, 64 for usage errors.
            """
    )

    @Argument(help: "Photos and videos, and folders of them.", completion: .file())
    var inputs: [String] = []

    @Option(help: ArgumentHelp("Keep a group that is removed by default: location, serial, owner, makernotes (author and thumbnail are kept already).", valueName: "group"))
    var keep: [StripGroup] = []

    @Option(help: ArgumentHelp("Remove a group that is kept by default (author, thumbnail).", valueName: "group"))
    var remove: [StripGroup] = []

    @OptionGroup var location: LocationOption

    @Flag(help: "Replace each input with its stripped copy.")
    var inPlace = false

    @Option(help: ArgumentHelp("Refuse a stream (standard input, a pipe or a FIFO) that sends more than this (e.g. 2G); files are never held to it. strip decodes no pixels: the other limits are not its.", valueName: "size"))
    var maxInputSize = ByteCount(StreamLimits.defaultMaxSize)

    @OptionGroup var outputs: OutputOptions

    @OptionGroup var batch: BatchOptions

    @OptionGroup var jobs: JobOptions

    @OptionGroup var sandbox: SandboxOptions

    /// The extensions a folder is searched for.
    static let extensions: Set<String> = ["jpg", "jpeg", "png", "webp", "heic", "heif", "hif", "avif", "tif", "tiff", "mp4", "mov", "m4v"]

    func validate() throws {
        try batch.validate(inputs: inputs, missing: "Give at least one photo or video.")
        if let both = Set(keep).intersection(remove).sorted().first {
            throw ValidationError("--keep \(both.rawValue) and --remove \(both.rawValue) contradict each other.")
        }
        if location.location == .remove && keep.contains(.location) || location.location == .keep && remove.contains(.location) {
            throw ValidationError("--location and --keep/--remove location contradict each other.")
        }
        if inPlace && (outputs.output != nil || outputs.outDir != nil || outputs.name != nil) {
            throw ValidationError("--in-place replaces each input: give it without -o, --out-dir or --name.")
        }
        if inPlace && inputs.contains("-") { throw ValidationError("Standard input has no file to replace: give -o FILE (or -o -).") }
        if outputs.name?.contains("{size}") == true { throw ValidationError("--name's {size} is thumbnail's: strip writes one file an input.") }
        if inputs.contains("-") && outputs.output == nil {
            throw ValidationError("Standard input has no name to make an output's from: give -o FILE (or -o -).")
        }
        if outputs.writesToStandardOutput && jobs.json { throw ValidationError("-o - and --json both write to standard output.") }
    }

    func run() throws {
        var options = StripOptions()
        options.groups = StripGroup.removedByDefault.subtracting(keep).union(remove)
        if location.keeps(byDefault: false) { options.groups.remove(.location) }
        options.output = outputs.policy
        if inPlace {
            options.output.overwrite = true
            options.output.replacesItsInput = true
        }
        var limits = try LimitOptions.parse([])
        limits.maxInputSize = maxInputSize
        let sandboxRun = sandbox.begin(limits: limits, starting: [.pictures])
        let template = inPlace || outputs.outDir != nil ? "{stem}.{ext}" : "{stem}.stripped.{ext}"
        let (plan, files, ownOutputs) = try OutputOptions.plan(
            output: outputs.output, outDir: outputs.outDir, name: outputs.name ?? (inPlace ? template : nil), for: inputs,
            extensions: Self.extensions, batch: batch, defaultTemplate: template, replacesInputs: inPlace)
        try sandboxRun.runBatch(files, plan: plan, jobs: jobs, ownOutputs: ownOutputs, spec: .strip(options),
                                serving: batch.serve ? batch.selection(extensions: Self.extensions) : nil)
    }
}
