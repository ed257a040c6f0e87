import ArgumentParser
import Batch
import BinaryArrays
import FileIO
import Glibc
import WorkerPool

/// What the options the array subcommands share say in each one's help.
protocol ArrayHelp {
    /// What an input holds: "values" (dump-doubles) or "records" (dump-array).
    static var units: String { get }
    /// When a file's length is not a whole number of them.
    static var trailing: String { get }
    /// The dump that writes what the packer reads.
    static var dump: String { get }
    /// The hex after each value.
    static var hexBytes: String { get }
    /// What --columns does.
    static var columns: String { get }
}

enum DoublesHelp: ArrayHelp {
    static let units = "values"
    static let trailing = "Decode the whole values of a file whose length is not a multiple of 8, with a warning, instead of failing."
    static let dump = "dump-doubles"
    static let hexBytes = "its 8 bytes"
    static let columns = "Values a line (a row in json)."
}

enum ArraysHelp: ArrayHelp {
    static let units = "records"
    static let trailing = "Decode the whole records of a file whose length is not a multiple of the record's size, with a warning, instead of failing."
    static let dump = "dump-array"
    static let hexBytes = "its bytes"
    static let columns = "Values a line (a row in json); for records, one record a line."
}

/// Which part of each input a dump reads, and what it says of the run: dump-doubles and dump-array.
struct DumpSelectionOptions<Help: ArrayHelp>: ParsableArguments {
    @Option(help: ArgumentHelp("Bytes to skip before the first \(Help.units.dropLast()) (decimal, or hex with 0x).", valueName: "bytes"))
    var offset = NumberArgument(0)

    @Option(help: ArgumentHelp("The most \(Help.units) to decode from each file (decimal, or hex with 0x).", valueName: Help.units))
    var count: NumberArgument?

    @Flag(help: ArgumentHelp(Help.trailing))
    var allowTrailing = false

    @Flag(help: "No summary line on standard error after several inputs.")
    var quiet = false

    func validate() throws {
        guard offset.value >= 0 else { throw ValidationError("--offset must be 0 or more.") }
        if let count, count.value < 0 { throw ValidationError("--count must be 0 or more.") }
    }

    /// What to dump of each input: `record`s as `list` lays them out, on every core the process may
    /// use (the output is the same on any number).
    func dumpOptions(record: RecordLayout, list: ListLayoutOptions<Help>) -> ArrayDumpOptions {
        var options = ArrayDumpOptions(record: record, offset: offset.value, count: count?.value, layout: list.layout,
                                       summarises: list.stats, allowsTrailingBytes: allowTrailing)
        options.workers = WorkerThreads.cores
        return options
    }

    /// Dumps `inputs` one after another to standard output, in order; `readsNPY` says which are
    /// .npy files, whose headers give their layout.
    func dump(_ inputs: [BatchInput], options: ArrayDumpOptions, readsNPY: @escaping @Sendable (String) -> Bool) throws {
        // Unsafe only in name: one worker uses it, one input after another.
        nonisolated(unsafe) let dump = ArrayDump(output: .standardOutput(), labelsInputs: inputs.count > 1)
        var settings = BatchSettings(jobs: 1)
        settings.showsSummary = !quiet
        let summary = BatchEngine(settings: settings).run(inputs, plan: nil) { input, _, _ in
            let file = try InputFile(path: input.path)
            let warnings = try dump.dump(file, named: file.displayName, options: options, isNPY: readsNPY(input.path))
            return JobReport(warnings: warnings.map(\.warningDescription))
        }
        if summary.exitStatus != 0 { throw ExitCode(summary.exitStatus) }
    }
}

/// The file a packer writes, and what its text holds besides values: pack-doubles and pack-array.
struct PackOutputOptions<Help: ArrayHelp>: ParsableArguments {
    @Option(name: .shortAndLong, help: "The binary file to write.", completion: .file())
    var output: String

    @Flag(help: "Replace OUT if it exists.")
    var overwrite = false

    @Flag(help: ArgumentHelp("Each line starts with the index of its first value, as \(Help.dump) --index writes."))
    var index = false

    @Flag(help: ArgumentHelp("Each value is followed by \(Help.hexBytes) in hex, as \(Help.dump) --hex writes."))
    var hex = false

    @Flag(help: ArgumentHelp("The first line of each file names the columns, as \(Help.dump) --header writes."))
    var header = false

    var textLayout: DoubleTextLayout { DoubleTextLayout(hasIndex: index, hasHex: hex, hasHeader: header) }

    func validate() throws {
        try InputList.refuseEmpty([("-o", output)])
        guard output != "-" else { throw ValidationError("-o takes a file: binary output is written atomically.") }
    }

    /// Packs every input into `record`s of one new file, or writes nothing: each input is tried, so
    /// that one run names every bad one. With `npy`, a .npy header goes first, completed with the
    /// count at the end.
    func pack(_ inputs: [String], record: RecordLayout, npy: NPYWriter?) throws {
        // A .npy header is rewritten in place once the count is known: only a file can take that.
        if npy != nil, let status = FileSystem.status(output), status.st_mode & S_IFMT != S_IFREG {
            throw ValidationError("--npy writes a file whose header is completed at the end: \(output) is \(FileSystem.kind(of: status)).")
        }
        // Nothing to finish on a signal: the temporary is removed and the run ends at once, 130 or 143.
        TemporaryFiles.removeLeftovers(besides: output)
        // Before anything is read: the output may be what standard input reads (`-o a.txt <a.txt`).
        do { try OutputGuard.refuseInputs(inputs, asOutput: output) } catch { throw ValidationError("\(error)") }
        var target: AtomicOutputFile?
        let opened = ReportedStep.succeeds(output) {
            target = try AtomicOutputFile(path: output, policy: OutputPolicy(overwrite: overwrite, isNamedByUser: true))
        }
        guard opened, let target else { throw ExitCode.failure }
        let buffer = BufferedOutput(descriptor: target.descriptor, displayName: output)
        if let npy { guard ReportedStep.succeeds(output, { try buffer.write(try npy.header(count: 0)) }) else { throw ExitCode.failure } }
        var packing = ArrayPacking(record: record, layout: textLayout, output: buffer)
        let packed = inputs.map { file in ReportedStep.succeeds(file) { try packing.pack(InputFile(path: file)) } }
        guard !packed.contains(false) else { throw ExitCode.failure }
        // A stream that ended because Ctrl-C stopped its writer is not a whole input.
        guard ReportedStep.succeeds(output, {
            try buffer.flush()
            try npy?.rewrite(count: packing.recordCount, descriptor: target.descriptor, name: output)
            try target.commit()
        }) else { throw ExitCode.failure }
    }
}
