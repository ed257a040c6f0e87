import ArgumentParser
import Batch
import FileIO
import Glibc
import WorkerPool

/// How a subcommand finds its inputs and runs them: shared by thumbnail, crop and dump-doubles.
struct BatchOptions: ParsableArguments {
    @Flag(help: "Take the files of subfolders of the folders given, too.")
    var recursive = false

    @Option(help: ArgumentHelp("In folders, take the files whose names match this pattern instead of the subcommand's formats.", valueName: "glob"))
    var include: String?

    @Option(help: ArgumentHelp("Also take the paths listed in this file, one a line ('-' for standard input).", valueName: "file"), completion: .file())
    var filesFrom: String?

    @Flag(help: "Serve: read paths from standard input, one a line, and answer each with its JSON line as soon as it is done, one after another, until standard input ends. For a server that keeps one mediatool running and feeds it files: its workers stay warm between them. No other inputs are given.")
    var serve = false

    @Option(help: ArgumentHelp("Take only part K of N (K from 0 to N-1), by a hash of each input's path: N machines given K = 0 ... N-1 share the work.", valueName: "K/N"))
    var shard: String?

    func validate() throws {
        if serve, let given = filesFrom.map({ _ in "--files-from" }) ?? shard.map({ _ in "--shard" }) {
            throw ValidationError("--serve takes its inputs from standard input: \(given) has no place beside it.")
        }
        if let shard, Shard(parsing: shard) == nil {
            throw ValidationError("--shard takes K/N with 0 <= K < N, e.g. 0/4, not '\(shard)'.")
        }
    }

    /// The inputs named by `arguments`, folders expanded, in order, this shard's share only.
    /// The inputs' check every subcommand makes: some given, or `--serve` and none.
    func validate(inputs: [String], missing: String) throws {
        if serve {
            guard inputs.isEmpty else { throw ValidationError("--serve takes its inputs from standard input, not as arguments ('\(inputs[0])').") }
            return
        }
        guard !inputs.isEmpty || filesFrom != nil else { throw ValidationError(missing) }
        try InputList.validate(inputs)
    }

    /// What a folder sent to `--serve` gives: the files of the subcommand's formats.
    func selection(extensions: Set<String>) -> InputSelection {
        var selection = InputSelection(extensions: extensions)
        selection.recursive = recursive
        selection.includePattern = include
        return selection
    }

    func inputs(_ arguments: [String], extensions: Set<String>) throws -> [BatchInput] {
        shardShare(of: try allInputs(arguments, extensions: extensions))
    }

    /// Every shard's inputs: what outputs are planned for, so that all shards pass over the same.
    func allInputs(_ arguments: [String], extensions: Set<String>) throws -> [BatchInput] {
        // Standard input is read once: as the list, or as an input, not both, by any of its names
        // (`-`, /dev/stdin, /proc/self/fd/0) where it is a stream.
        if let filesFrom, Self.readsStandardInput(filesFrom), arguments.contains(where: Self.readsStandardInput) {
            throw ValidationError("--files-from \(filesFrom) and the input '\(arguments.first(where: Self.readsStandardInput)!)' would both read standard input: give one of them.")
        }
        return try InputCollector.collect(arguments: arguments, listFile: filesFrom, selection: selection(extensions: extensions))
    }

    /// `-`, or another name of standard input when it is a stream (a file can be read twice).
    static func readsStandardInput(_ path: String) -> Bool {
        if path == "-" { return true }
        var status = stat()
        guard fstat(STDIN_FILENO, &status) == 0, status.st_mode & S_IFMT != S_IFREG else { return false }
        return FileIdentity(path: path) == FileIdentity(status)
    }

    func shardShare(of inputs: [BatchInput]) -> [BatchInput] {
        guard let shard = shard.flatMap(Shard.init(parsing:)) else { return inputs }
        return inputs.filter(shard.contains)
    }
}

/// How the jobs of a batch run and report, shared by thumbnail and crop.
struct JobOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "Inputs worked on at once (default: the number of cores).")
    var jobs: Int?

    @Flag(help: "One JSON object per input on standard output as each finishes (JSON Lines).")
    var json = false

    @Flag(help: "No progress bar and no summary.")
    var quiet = false

    @Flag(help: "Pass over inputs whose output exists: resumes a run (thumbnail: makes the sizes missing, leaves the others; ingest: passes over an input whose manifest exists, keeps the renditions found).")
    var skipExisting = false

    @Flag(help: "Do not sync each output to the disk before it takes its name (faster, for scratch output: after a power loss an output may be there and empty).")
    var noFsync = false

    static var cores: Int { WorkerThreads.cores }

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more.") }
    }

    var workers: Int { jobs ?? Self.cores }

    /// One thread budget for the process: the cores go to the workers first, each its share for its
    /// decoder, scaler and encoder; a lone worker takes them all (0).
    func threadsPerWorker(inputs: Int) -> Int {
        let running = min(workers, inputs)
        return running <= 1 ? 0 : max(1, Self.cores / running)
    }

    /// `ownOutputs`: files of the folders passed over as mediatool's own outputs, for the summary.
    func settings(ownOutputs: Int = 0) -> BatchSettings {
        var settings = BatchSettings(jobs: workers)
        settings.ownOutputsPassedOver = ownOutputs
        settings.skipsExisting = skipExisting
        settings.reportsJSON = json
        settings.showsProgress = !quiet && isatty(STDERR_FILENO) == 1
        settings.showsSummary = !quiet
        return settings
    }
}
