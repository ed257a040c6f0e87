import ArgumentParser
import Glibc
import BinaryArrays
import FileIO
import Reporting

struct PackArray: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pack-array",
        abstract: "Write values given as text as a binary array of any numeric type, of records, or a NumPy .npy file.",
        discussion: """
            Reads values separated by whitespace, commas or newlines, each made into --type: \
            integers exactly (a fraction or a value out of the type's range is an error naming its \
            line and column), floating point correctly rounded. A record type ('f64,i32') takes its \
            fields in order. Reads back everything dump-array writes: give it the --index, --hex and \
            --header given to dump-array. --npy writes a .npy file NumPy loads (shape (N,), or \
            (N/C, C) with --columns C).

            Examples:
              mediatool pack-array --type f32 values.txt -o values.f32
              mediatool dump-array --type i16 a.pcm | mediatool pack-array --type i16 -o b
              mediatool pack-array --type 'f64,i32' --npy log.csv -o log.npy

            Exit status: 0 when OUT was written, 1 when any input failed, 64 for usage errors.
            """
    )

    @Argument(help: "Text files of values; standard input when none is given or for '-'.", completion: .file())
    var files: [String] = []

    @OptionGroup var written: PackOutputOptions<ArraysHelp>

    @Option(help: ArgumentHelp("The element type, or a record of types separated by commas.", valueName: "type"))
    var type: String

    @OptionGroup var byteOrder: ByteOrderOption

    @Option(help: ArgumentHelp("Bytes a record, when it is more than its fields take (the rest zero).", valueName: "bytes"))
    var stride: Int?

    @Option(help: "Where a record's fields lie: packed, or natural (each at a multiple of its size).")
    var align: RecordLayout.Alignment = .packed

    @Option(help: ArgumentHelp("Names of the record's fields, for the .npy dtype.", valueName: "a,b,..."))
    var names: String?

    @Flag(help: "Write a NumPy .npy file: a header with the dtype and shape, then the data.")
    var npy = false

    @Option(help: "With --npy, values a row: the shape is (N/C, C).")
    var columns: Int = 1

    private var inputs: [String] { files.isEmpty ? ["-"] : files }

    private func recordLayout() throws -> RecordLayout {
        do {
            let fieldNames = names.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            return try RecordLayout(parsing: type, byteOrder: byteOrder.byteOrder, alignment: align, stride: stride, names: fieldNames)
        } catch {
            throw ValidationError("--type: \(error)")
        }
    }

    func validate() throws {
        try InputList.validate(inputs)
        if let stride, stride < 1 { throw ValidationError("--stride must be 1 or more.") }
        guard columns >= 1 else { throw ValidationError("--columns must be 1 or more.") }
        if columns > 1 && !npy { throw ValidationError("--columns gives a .npy file's rows: it goes with --npy.") }
        let record = try recordLayout()
        if npy {
            do { _ = try NPYWriter(record: record, columns: columns) } catch { throw ValidationError("\(error)") }
        }
    }

    func run() throws {
        let record = try recordLayout()
        try written.pack(inputs, record: record, npy: npy ? try NPYWriter(record: record, columns: columns) : nil)
    }
}
