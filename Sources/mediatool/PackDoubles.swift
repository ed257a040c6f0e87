import ArgumentParser
import BinaryArrays
import FileIO
import Reporting

struct PackDoubles: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack-doubles",
        abstract: "Write numbers given as text as a binary file of IEEE-754 doubles.",
        discussion: """
            Reads decimal numbers separated by whitespace, commas or newlines, and nan, inf, -inf, \
            infinity (any case) and the JSON strings "NaN", "Infinity", "-Infinity". The inputs are \
            written one after another into OUT. A token that is not a number, or a number beyond the \
            range of a double, is an error naming its line and column, and nothing is written.

            Everything dump-doubles writes reads back: its '==> NAME <==' labels are skipped, JSON \
            (arrays, rows, {"value": V, "hex": H} objects, one {"file": ..., "values": [...]} a line) \
            is known by its first character, and the --index, --hex and --header given to \
            dump-doubles are given here too. With --hex the bytes are checked against the value \
            beside them and written exactly, NaN payloads included.

            Examples:
              mediatool pack-doubles values.txt -o values.bin
              printf '1.5 -0.0 inf\\n' | mediatool pack-doubles -o values.bin
              mediatool dump-doubles a.bin | mediatool pack-doubles --endian big -o b.bin
              mediatool dump-doubles --format csv --header --index a.bin > a.csv
              mediatool pack-doubles --header --index a.csv -o a.bin

            Exit status: 0 when OUT was written, 1 when any input failed, 64 for usage errors.
            """
    )

    @Argument(help: "Text files of numbers; standard input when none is given or for '-'.", completion: .file())
    var files: [String] = []

    @OptionGroup var written: PackOutputOptions<DoublesHelp>

    @OptionGroup var byteOrder: ByteOrderOption

    private var inputs: [String] { files.isEmpty ? ["-"] : files }

    func validate() throws {
        try InputList.validate(inputs)
    }

    func run() throws {
        // pack-array of one f64 a record: the same engine, the same bytes.
        try written.pack(inputs, record: RecordLayout(scalar: .f64, byteOrder: byteOrder.byteOrder), npy: nil)
    }
}
