import Glibc
import FileIO
import Failures

/// Why a plan of outputs is refused before anything is written.
public enum OutputPlanError: Error, Equatable, CustomStringConvertible {
    /// Two inputs would write one output; `remedy` says how to tell them apart.
    case collision(output: String, first: String, second: String, remedy: String)
    /// An output is (by device and inode) one of the inputs of the run.
    case outputIsInput(output: String, input: String)
    /// An output would land outside the folder it belongs in (`--out-dir`, or its input's folder).
    case escapes(output: String, folder: String)

    public var description: String {
        switch self {
        case .collision(let output, let first, let second, let remedy):
            return "\(first) and \(second) would both write \(output); \(remedy)"
        case .outputIsInput(let output, let input):
            return "output \(output) is the input \(input) (inputs are never written to)"
        case .escapes(let output, let folder):
            return "output \(output) would be written outside \(folder) (a name may not lead out of its folder)"
        }
    }
}

/// Where each input's output goes: `-o FILE` for a lone input; else a name made from a template,
/// beside the input or, with `--out-dir`, under that folder at the input's relative path.
public struct OutputPlan: Sendable, Equatable {
    public var explicitPath: String?
    public var directory: String?
    /// `{stem}`, `{ext}` (the input's extension) and `{dir}` (its folder's name) are replaced.
    public var template: String
    /// What each input's outputs hold, one output each (a thumbnail's sizes): each replaces
    /// `{size}` in the template or the explicit path. One "" for one output an input.
    public var variants: [String] = [""]
    /// The first variant is moved into place last and lists the others (an ingest's manifest): with
    /// `--skip-existing`, an input whose first output is there is done, and skipped whole.
    public var firstMarksCompletion = false

    /// Each input's output is the input itself (`strip --in-place`): an output that is its own
    /// input is the plan, not a mistake; one that is another input still is.
    public var replacesInputs = false

    /// What a collision's message suggests: subcommands without `--name` say what they have.
    public var collisionRemedy = OutputPlan.nameRemedy

    public static let nameRemedy = "--name can tell them apart: {stem}, {ext} and {dir} are the input's name, extension and folder (e.g. '{dir}-{stem}.{ext}.png')"

    public init(explicitPath: String? = nil, directory: String? = nil, template: String) {
        self.explicitPath = explicitPath
        self.directory = directory
        self.template = template
    }

    /// The default template of a subcommand: `{stem}.thumb.png`.
    public static func defaultTemplate(suffix: String, fileExtension: String) -> String {
        "{stem}.\(suffix).\(fileExtension)"
    }

    /// The first of the input's outputs: the one opened before its job.
    public func output(for input: BatchInput) -> String {
        output(for: input, variant: variants[0])
    }

    /// Every output of the input, in the order of the variants.
    public func outputs(for input: BatchInput) -> [PlannedOutput] {
        variants.map { PlannedOutput(variant: $0, path: output(for: input, variant: $0)) }
    }

    private func output(for input: BatchInput, variant: String) -> String {
        if let explicitPath { return explicitPath.replacingEvery("{size}", with: variant) }
        let (folder, relative) = placement(for: input, variant: variant)
        return folder.map { InputCollector.join($0, relative) } ?? relative
    }

    /// The folder an output belongs in (nil for the current folder) and its path under it.
    private func placement(for input: BatchInput, variant: String) -> (folder: String?, relative: String) {
        let parts = input.parts
        let inputFolder = Self.folder(of: input.path)
        // The variant is the run's own (a size, or an ingest recipe's whole name), and may hold the
        // input's placeholders; the input's parts go in as they are, in one pass, so that a file
        // named `a{ext}.jpg` is not expanded a second time.
        let name = template.replacingEvery("{size}", with: variant).replacingPlaceholders([
            "stem": parts.stem, "ext": parts.fileExtension,
            "dir": parts.folder.split(separator: "/").last.map(String.init) ?? Self.realName(of: inputFolder ?? "."),
        ])
        if let directory {
            return (directory, parts.folder.isEmpty ? name : parts.folder + "/" + name)
        }
        return (inputFolder, name)
    }

    /// The name of a folder as it is, not as it was reached: `a/b/..` is `a`.
    private static func realName(of folder: String) -> String {
        let resolved = FileSystem.realPath(folder) ?? folder
        return InputCollector.fileName(of: resolved)
    }

    /// The folder part of a path, without its last slash; nil for a bare name.
    static func folder(of path: String) -> String? {
        path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) }
    }

    /// The inputs without those found in folders that another input of the run writes, by this
    /// plan or by the subcommand's `defaultTemplate` into the same place (compared by folder
    /// identity and name): this run's outputs, or an earlier run's, which a second run must not crop
    /// again. Only those are passed over, never a file that merely looks like an output (`--name
    /// '{stem}.jpg'` on a folder of JPEGs takes them all); how many is said in the summary.
    ///
    /// `earlierVariant`: a subcommand whose outputs come in variants (a thumbnail's sizes) also passes
    /// over a file found in a folder that is named `{stem}.{label}.{outputExtension}` where `label` is
    /// one `earlierVariant` accepts and another input of that folder has the stem `{stem}`: what an
    /// earlier run with other sizes wrote beside its input.
    ///
    /// `sideOutputOwner`: a subcommand whose job writes files beside its planned output (an HLS
    /// ladder's renditions beside its master playlist) names, for a file found, the planned output
    /// it would be written beside (nil: none); such a file is passed over where an input of the
    /// run writes that output.
    public func passingOverOwnOutputs(_ inputs: [BatchInput], defaultTemplate: String, outputExtension: String = "",
                                      earlierVariant: ((String) -> Bool)? = nil,
                                      sideOutputOwner: ((String) -> String?)? = nil) -> (inputs: [BatchInput], passedOver: Int) {
        guard explicitPath == nil else { return (inputs, 0) }
        var stems: Set<[UInt8]> = []
        if earlierVariant != nil {
            for input in inputs where input.problem == nil {
                stems.insert(Self.place(of: InputCollector.join(Self.folder(of: input.path) ?? ".", input.parts.stem)))
            }
        }
        func isEarlierVariant(_ input: BatchInput) -> Bool {
            guard let earlierVariant, input.parts.fileExtension.lowercased() == outputExtension,
                  let dot = input.parts.stem.lastIndex(of: "."), dot != input.parts.stem.startIndex else { return false }
            let stem = String(input.parts.stem[..<dot]), label = String(input.parts.stem[input.parts.stem.index(after: dot)...])
            return earlierVariant(label) && stems.contains(Self.place(of: InputCollector.join(Self.folder(of: input.path) ?? ".", stem)))
        }
        var earlier = self
        earlier.template = defaultTemplate
        // Each place, and the inputs that write there: an input whose own output is itself is no
        // output of another, and is refused by `check` (an output that is an input), not passed over.
        var writers: [[UInt8]: Set<[UInt8]>] = [:]
        for input in inputs where input.problem == nil {
            let source = PathBytes.bytes(input.path)
            for output in outputs(for: input) + earlier.outputs(for: input) {
                writers[Self.place(of: output.path), default: []].insert(source)
            }
        }
        let kept = inputs.filter { input in
            guard input.isFoundInFolder, input.problem == nil else { return true }
            if isEarlierVariant(input) { return false }
            if let owner = sideOutputOwner?(input.path), let sources = writers[Self.place(of: owner)],
               !sources.subtracting([PathBytes.bytes(input.path)]).isEmpty {
                return false
            }
            guard let sources = writers[Self.place(of: input.path)] else { return true }
            return sources.subtracting([PathBytes.bytes(input.path)]).isEmpty
        }
        return (kept, inputs.count - kept.count)
    }

    /// Refuses a plan before anything is written: when two inputs would write one output, and when
    /// an output is one of the inputs (compared by device and inode, so no other path to it
    /// passes). An input whose output would land outside its folder (its name `..` in the
    /// template, or a link among the folders it passes through that leads out) is one failed
    /// input, not the run's: a stranger's file name does not stop the others. Inputs that could
    /// not be listed have no output. The inputs, those that escape marked so.
    /// `sideOutputOwner` (see `passingOverOwnOutputs`): an input that a job of the run would write
    /// beside its planned output (an HLS rendition named as an input) is an output that is an input.
    public func check(_ inputs: [BatchInput], sideOutputOwner: ((String) -> String?)? = nil) throws(OutputPlanError) -> [BatchInput] {
        var escaping: [String: String] = [:]
        let listed = inputs.filter { $0.problem == nil }
        var inputIdentities: [FileIdentity: String] = [:]
        for input in listed {
            if let identity = FileIdentity(path: input.path), inputIdentities[identity] == nil { inputIdentities[identity] = input.path }
        }
        var owners: [[UInt8]: String] = [:]
        for input in listed {
            for variant in variants {
                let output = output(for: input, variant: variant)
                let place = Self.place(of: output)
                if let first = owners[place] { throw .collision(output: output, first: first, second: input.path, remedy: collisionRemedy) }
                owners[place] = input.path
                if output != AtomicOutputFile.standardOutputName || explicitPath == nil,
                   let identity = FileIdentity(path: output), let owner = inputIdentities[identity],
                   !(replacesInputs && FileIdentity(path: input.path) == identity) {
                    throw .outputIsInput(output: output, input: owner)
                }
                if explicitPath == nil {
                    let (folder, relative) = placement(for: input, variant: variant)
                    if !Self.staysInside(folder ?? ".", relative), escaping[input.path] == nil {
                        escaping[input.path] = OutputPlanError.escapes(output: output, folder: folder ?? ".").description
                    }
                }
            }
        }
        if let sideOutputOwner {
            for input in listed {
                if let owner = sideOutputOwner(input.path), owners[Self.place(of: owner)] != nil {
                    throw .outputIsInput(output: input.path, input: input.path)
                }
            }
        }
        return inputs.map { input in
            guard input.problem == nil, let problem = escaping[input.path] else { return input }
            return BatchInput(path: input.path, relativePath: input.relativePath, problem: problem, isFoundInFolder: input.isFoundInFolder)
        }
    }

    /// Where an output lands, however it is spelled (`d/a.png`, `./d/a.png`, `d//a.png`, or through a
    /// link to `d`): its folder's device and inode and its name; a folder not made yet, by its
    /// path without `.` components and repeated slashes.
    /// As bytes: Strings compare by Unicode's canonical equivalence, and `café` composed and
    /// decomposed are two names, two files.
    public static func place(of output: String) -> [UInt8] {
        let name = InputCollector.fileName(of: output)
        let folder = folder(of: output) ?? "."
        if let identity = FileIdentity(path: folder) { return PathBytes.bytes("\(identity.device):\(identity.inode)/\(name)") }
        let components = folder.split(separator: "/").filter { $0 != "." }
        return PathBytes.bytes((folder.hasPrefix("/") ? "/" : "") + components.joined(separator: "/") + "/" + name)
    }

    /// True when `relative` names a file under `folder`: no `..` and no absolute path, and no link
    /// among the folders it passes through that leads out of `folder`.
    static func staysInside(_ folder: String, _ relative: String) -> Bool {
        let components = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.hasPrefix("/"), let last = components.last, !last.isEmpty, last != ".",
              !components.contains("..") else { return false }
        guard let base = FileSystem.realPath(folder) else { return true }  // nothing under it exists yet
        var path = folder
        for component in components.dropLast() where !component.isEmpty && component != "." {
            path = InputCollector.join(path, String(component))
            guard FileSystem.linkStatus(path) != nil else { break }
            guard let resolved = FileSystem.realPath(path),
                  resolved == base || resolved.hasPrefix(base == "/" ? "/" : base + "/") else { return false }
        }
        return true
    }
}

extension OutputPlanError: ClassifiedError {
    public var failureKind: FailureKind { .invalidRequest }
}
