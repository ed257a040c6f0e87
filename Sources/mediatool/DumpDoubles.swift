import ArgumentParser
import Glibc
import Batch
import BinaryArrays
import FileIO
import WorkerPool


struct DumpDoubles: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump-doubles",
        abstract: "Print arrays of IEEE-754 doubles stored in binary files.",
        discussion: """
            Values are decoded at any byte offset, in either byte order, in constant memory, and \
            printed as the shortest decimal that reads back to the same bits (-0.0, inf, -inf, nan).

            With several inputs, text and csv output starts each file with a '==> NAME <==' line; \
            json output is one JSON object a line: {"file": NAME, "values": [...]} or \
            {"file": NAME, "stats": {...}}.

            Examples:
              mediatool dump-doubles data.bin
              mediatool dump-doubles --endian big --offset 16 --count 100 data.bin
              mediatool dump-doubles --columns 3 --index --hex data.bin
              mediatool dump-doubles --format csv --columns 3 --header data.bin > data.csv
              mediatool dump-doubles --format json a.bin b.bin
              mediatool dump-doubles --stats data.bin
              cat data.bin | mediatool dump-doubles -

            Exit status: 0 when every input was dumped, 1 when any failed, 64 for usage errors.
            """
    )

    @Argument(help: "Binary files of doubles, and folders of them; '-' reads standard input.", completion: .file())
    var files: [String] = []

    @OptionGroup var batch: BatchOptions

    /// The names a folder is searched for.
    static let binaryExtensions: Set<String> = ["bin", "f64", "dat", "raw", "double", "doubles"]

    @OptionGroup var byteOrder: ByteOrderOption

    @Option(help: ArgumentHelp("Bytes to skip before the first value (decimal, or hex with 0x).", valueName: "bytes"))
    var offset = NumberArgument(0)

    @Option(help: ArgumentHelp("The most values to decode from each file (decimal, or hex with 0x).", valueName: "values"))
    var count: NumberArgument?

    @Flag(help: "No summary line on standard error after several inputs.")
    var quiet = false

    @OptionGroup var list: ListLayoutOptions

    @Flag(help: "Decode the whole values of a file whose length is not a multiple of 8, with a warning, instead of failing.")
    var allowTrailing = false

    /// The files given; with none, standard input when it is not a terminal (`cat data.bin | mediatool dump-doubles`, as od reads).
    private var inputs: [String] {
        files.isEmpty && batch.filesFrom == nil && isatty(STDIN_FILENO) == 0 ? ["-"] : files
    }

    func validate() throws {
        guard !inputs.isEmpty || batch.filesFrom != nil else {
            throw ValidationError("Give at least one file ('-' for standard input), or pipe one in.")
        }
        try InputList.validate(inputs)
        guard offset.value >= 0 else { throw ValidationError("--offset must be 0 or more.") }
        if let count, count.value < 0 { throw ValidationError("--count must be 0 or more.") }

    }

    func run() throws {
        let inputs = try batch.inputs(self.inputs, extensions: Self.binaryExtensions)
        // dump-array of one f64 a record: the same engine, the same bytes.
        var options = ArrayDumpOptions(record: RecordLayout(scalar: .f64, byteOrder: byteOrder.byteOrder), offset: offset.value,
                                       count: count?.value, layout: list.layout, summarises: list.stats,
                                       allowsTrailingBytes: allowTrailing)
        // Formatting and summaries on every core the process may use; the output is the same.
        options.workers = WorkerThreads.cores
        let arrayOptions = options
        // Unsafe only in name: one worker uses it, one input after another.
        nonisolated(unsafe) let dump = ArrayDump(output: .standardOutput(), labelsInputs: inputs.count > 1)
        // One worker: the files' outputs follow one another on standard output, in order.
        var settings = BatchSettings(jobs: 1)
        settings.showsSummary = !quiet
        let summary = BatchEngine(settings: settings).run(inputs, plan: nil) { input, _ in
            let file = try InputFile(path: input.path)
            let warnings = try dump.dump(file, named: file.displayName, options: arrayOptions)
            return JobReport(warnings: warnings.map(\.warningDescription))
        }
        if summary.exitStatus != 0 { throw ExitCode(summary.exitStatus) }
    }
}
