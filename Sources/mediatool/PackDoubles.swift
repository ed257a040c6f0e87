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

    @Option(name: .shortAndLong, help: "The binary file to write.", completion: .file())
    var output: String

    @Flag(help: "Replace OUT if it exists.")
    var overwrite = false

    @OptionGroup var byteOrder: ByteOrderOption

    @Flag(help: "Each line starts with the index of its first value, as dump-doubles --index writes.")
    var index = false

    @Flag(help: "Each value is followed by its 8 bytes in hex, as dump-doubles --hex writes.")
    var hex = false

    @Flag(help: "The first line of each file names the columns, as dump-doubles --header writes.")
    var header = false

    private var inputs: [String] { files.isEmpty ? ["-"] : files }

    func validate() throws {
        try InputList.validate(inputs)
        try InputList.refuseEmpty([("-o", output)])
        guard output != "-" else { throw ValidationError("-o takes a file: binary output is written atomically.") }
    }

    func run() throws {
        // Nothing to finish on a signal: the temporary is removed and the run ends at once, 130 or 143.
        TemporaryFiles.removeLeftovers(besides: output)
        var target: AtomicOutputFile?
        // Before anything is read: the output may be what standard input reads (`-o a.txt <a.txt`).
        do { try OutputGuard.refuseInputs(inputs, asOutput: output) } catch { throw ValidationError("\(error)") }
        let opened = ReportedStep.succeeds(output) {
            target = try AtomicOutputFile(path: output, policy: OutputPolicy(overwrite: overwrite, isNamedByUser: true))
        }
        guard opened, let target else { throw ExitCode.failure }
        let buffer = BufferedOutput(descriptor: target.descriptor, displayName: output)
        let layout = DoubleTextLayout(hasIndex: index, hasHex: hex, hasHeader: header)
        // pack-array of one f64 a record: the same engine, the same bytes.
        var packing = ArrayPacking(record: RecordLayout(scalar: .f64, byteOrder: byteOrder.byteOrder), layout: layout, output: buffer)
        // Every input is tried, so that one run names every bad one; then nothing is written.
        let packed = inputs.map { file in ReportedStep.succeeds(file) { try packing.pack(InputFile(path: file)) } }
        guard !packed.contains(false) else { throw ExitCode.failure }
        // A stream that ended because Ctrl-C stopped its writer is not a whole input.
        guard ReportedStep.succeeds(output, { try buffer.flush(); try target.commit() }) else { throw ExitCode.failure }
    }
}
