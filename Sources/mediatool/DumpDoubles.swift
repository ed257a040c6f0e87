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

    @OptionGroup var selection: DumpSelectionOptions<DoublesHelp>

    @OptionGroup var list: ListLayoutOptions<DoublesHelp>

    /// The files given; with none, standard input when it is not a terminal (`cat data.bin | mediatool dump-doubles`, as od reads).
    private var inputs: [String] {
        files.isEmpty && batch.filesFrom == nil && isatty(STDIN_FILENO) == 0 ? ["-"] : files
    }

    func validate() throws {
        guard !inputs.isEmpty || batch.filesFrom != nil else {
            throw ValidationError("Give at least one file ('-' for standard input), or pipe one in.")
        }
        try InputList.validate(inputs)
    }

    func run() throws {
        let inputs = try batch.inputs(self.inputs, extensions: Self.binaryExtensions)
        // dump-array of one f64 a record: the same engine, the same bytes.
        let options = selection.dumpOptions(record: RecordLayout(scalar: .f64, byteOrder: byteOrder.byteOrder), list: list)
        try selection.dump(inputs, options: options, readsNPY: { _ in false })
    }
}
