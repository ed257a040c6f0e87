import ArgumentParser
import Batch
import ImageCodecs
import FileIO
import Reporting

/// The folder outputs go to and whether they may replace files: every subcommand that writes
/// files per input has these two.
struct OutputFolderOptions: ParsableArguments {
    @Option(help: "The folder for the outputs, each at its input's path under the folder it was found in.", completion: .directory)
    var outDir: String?

    @Flag(help: "Replace outputs that exist.")
    var overwrite = false
}

/// Where outputs go, shared by the subcommands that write one file per input.
struct OutputOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .customLong("output")], help: "The output file (one input only).", completion: .file())
    var output: String?

    @OptionGroup var folder: OutputFolderOptions

    @Option(help: ArgumentHelp("Name outputs by this template: {stem}, {ext} (the input's extension), {dir} (its folder's name); for thumbnail, {size}.", valueName: "template"))
    var name: String?

    var outDir: String? { folder.outDir }
    var overwrite: Bool { folder.overwrite }

    /// The placeholders a `--name` template may hold.
    static let placeholders: Set<String> = ["stem", "ext", "dir", "size"]

    func validate() throws {
        try InputList.refuseEmpty([("-o", output), ("--out-dir", outDir), ("--name", name)])
        if output != nil && outDir != nil { throw ValidationError("Give -o or --out-dir, not both.") }
        if output != nil && name != nil { throw ValidationError("Give -o or --name, not both.") }
        if let name {
            var rest = Substring(name)
            while let open = rest.firstIndex(of: "{") {
                guard let close = rest[open...].firstIndex(of: "}") else {
                    throw ValidationError("--name has a '{' with no '}': '\(name)'.")
                }
                let placeholder = String(rest[rest.index(after: open)..<close])
                guard Self.placeholders.contains(placeholder) else {
                    throw ValidationError("--name knows {stem}, {ext}, {dir} and (for thumbnail) {size}, not {\(placeholder)}.")
                }
                rest = rest[rest.index(after: close)...]
            }
            if name == AtomicOutputFile.standardOutputName {
                throw ValidationError("--name - would name a file '-': use -o - for standard output.")
            }
            if name.hasPrefix("/") || name.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
                throw ValidationError("--name names a file under the output folder: no absolute path, no '..' ('\(name)').")
            }
        }
    }

    /// The format of every output, decided once, before any work: `--format` wins; else the
    /// extension of `-o` or of the `--name` template; else `fallback`. An extension that names no
    /// format we write, or one that disagrees with `--format`, is a usage error: the bytes of a file
    /// always match its name.
    func format<Format: WrittenFormat>(chosen: Format?, fallback: Format) throws -> Format {
        let named = output ?? name
        let fileExtension = named.flatMap(Self.fileExtension(of:))
        if let fileExtension, fileExtension.contains("{") {
            throw ValidationError("--name must end with the extension of the format it writes (\(Format.supportedList)), not '.\(fileExtension)'.")
        }
        let implied: Format?
        if let fileExtension {
            guard let format = Format(fileExtension: fileExtension) else {
                throw ValidationError("'.\(fileExtension)' is not a format \(Format.writer) writes: \(Format.supportedList).")
            }
            implied = format
        } else {
            implied = nil
        }
        if let chosen, let implied, chosen != implied {
            throw ValidationError("--format \(chosen.rawValue) disagrees with '\(named!)', which names \(implied.rawValue).")
        }
        return chosen ?? implied ?? fallback
    }

    /// The extension of the last part of a path, if it has one.
    static func fileExtension(of path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return String(name[name.index(after: dot)...])
    }

    /// `-o -`: the picture goes to standard output.
    var writesToStandardOutput: Bool { output == "-" }

    /// The plan for `inputs`, refused before any work when -o meets several inputs, two inputs
    /// would write one output, an output is an input, or an output would land outside its folder.
    /// The plan for the inputs `batch` finds, checked, and those inputs: without the files found
    /// in folders that this plan writes (a run's own outputs, or an earlier run's), this shard's
    /// share only; how many were passed over is for the summary.
    func plan(for arguments: [String], extensions: Set<String>, batch: BatchOptions,
              defaultTemplate: String, variants: [String] = [""],
              earlierVariant: ((String) -> Bool)? = nil) throws -> (plan: OutputPlan, inputs: [BatchInput], ownOutputs: Int) {
        try Self.plan(output: output, outDir: outDir, name: name, for: arguments, extensions: extensions, batch: batch,
                      defaultTemplate: defaultTemplate, variants: variants, earlierVariant: earlierVariant)
    }

    /// The same, for a subcommand that names its outputs otherwise (`ingest`: by its recipe).
    static func plan(output: String?, outDir: String?, name: String?, for arguments: [String], extensions: Set<String>, batch: BatchOptions,
                     defaultTemplate: String, variants: [String] = [""], firstMarksCompletion: Bool = false, collisionRemedy: String? = nil,
                     earlierVariant: ((String) -> Bool)? = nil, sideOutputOwner: ((String) -> String?)? = nil,
                     sideOutputIsKnown: ((_ path: String, _ owner: String) -> Bool)? = nil,
                     replacesInputs: Bool = false) throws -> (plan: OutputPlan, inputs: [BatchInput], ownOutputs: Int) {
        if batch.serve && output != nil { throw ValidationError("--serve writes an output for each input it is sent: give --out-dir, not -o.") }
        var plan = OutputPlan(explicitPath: output, directory: outDir, template: name ?? defaultTemplate)
        plan.replacesInputs = replacesInputs
        // The example names the format the run writes: one naming another is refused (a new user
        // copied '...{size}.png' into a run of --format jpeg).
        let written = fileExtension(of: defaultTemplate) ?? "png"
        plan.collisionRemedy = "--name can tell them apart: {stem}, {ext} and {dir} are the input's name, extension and folder (e.g. '{dir}-{stem}.{ext}.\(written)')"
        plan.variants = variants
        plan.firstMarksCompletion = firstMarksCompletion
        if variants.count > 1 {
            plan.collisionRemedy = "--name can tell them apart: {stem}, {ext}, {dir} and {size} are the input's name, extension and folder and the size (e.g. '{dir}-{stem}.{ext}.{size}.\(written)')"
        }
        if let collisionRemedy { plan.collisionRemedy = collisionRemedy }
        let (kept, ownOutputs) = plan.passingOverOwnOutputs(try batch.allInputs(arguments, extensions: extensions),
                                                            defaultTemplate: defaultTemplate,
                                                            outputExtension: fileExtension(of: defaultTemplate)?.lowercased() ?? "",
                                                            earlierVariant: earlierVariant,
                                                            // Passed over only where the file is known to be one (its
                                                            // master lists it), not merely named like one: an upload
                                                            // named a.240p.mp4 is no rendition to pass over.
                                                            sideOutputOwner: sideOutputOwner.map { owner in { path in
                                                                owner(path).flatMap { master in sideOutputIsKnown?(path, master) ?? true ? master : nil }
                                                            } })
        let shared = batch.shardShare(of: kept)
        if output != nil && shared.count != 1 {
            throw ValidationError("-o names one output: use --out-dir for \(shared.count) inputs.")
        }
        let inputs: [BatchInput]
        do {
            inputs = try plan.check(shared, sideOutputOwner: sideOutputOwner)
        } catch {
            throw ValidationError(Diagnostics.printable(error.description))
        }
        return (plan, inputs, ownOutputs)
    }

    /// What writing an output may do to what is at its path.
    var policy: OutputPolicy { OutputPolicy(overwrite: overwrite, isNamedByUser: output != nil) }

}
