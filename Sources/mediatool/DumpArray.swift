import ArgumentParser
import Glibc
import Batch
import BinaryArrays
import FileIO
import WorkerPool

extension RecordLayout.Alignment: ExpressibleByArgument {}

struct DumpArray: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump-array",
        abstract: "Print binary arrays of any numeric type, of records, and NumPy .npy files.",
        discussion: """
            --type is one of f64 f32 f16 bf16 i8 i16 i32 i64 u8 u16 u32 u64, or a record of them \
            ('f64,i32,u16'): one record a line, one column a field, packed or at --align natural, \
            --stride bytes apart. Floating-point values print as the shortest decimal that reads \
            back to the same bits (f16 and bf16 through the f32 they widen to), integers exactly. \
            A .npy file (or any input with --npy) is read by its header: dtype, byte order, \
            shape (the last dimension as columns) and Fortran order; --type is not needed.

            Examples:
              mediatool dump-array --type f32 samples.f32
              mediatool dump-array --type i16 --endian big --columns 2 stereo.pcm
              mediatool dump-array --type f64,i32,u16 --names t,x,ok --format csv log.bin
              mediatool dump-array weights.npy

            Exit status: 0 when every input was dumped, 1 when any failed, 64 for usage errors.
            """
    )

    @Argument(help: "Binary files and .npy files, and folders of them; '-' reads standard input.", completion: .file())
    var files: [String] = []

    @OptionGroup var batch: BatchOptions

    @Option(help: ArgumentHelp("The element type, or a record of types separated by commas.", valueName: "type"))
    var type: String?

    @OptionGroup var byteOrder: ByteOrderOption

    @Option(help: ArgumentHelp("Bytes a record, when it is more than its fields take.", valueName: "bytes"))
    var stride: Int?

    @Option(help: "Where a record's fields lie: packed, or natural (each at a multiple of its size, as C lays out a struct).")
    var align: RecordLayout.Alignment = .packed

    @Option(help: ArgumentHelp("Names of the record's fields, for --header and --stats.", valueName: "a,b,..."))
    var names: String?

    @Flag(help: "Read every input as a .npy file (files named .npy always are).")
    var npy = false

    @OptionGroup var selection: DumpSelectionOptions<ArraysHelp>

    @OptionGroup var list: ListLayoutOptions<ArraysHelp>

    /// The names a folder is searched for.
    static let binaryExtensions: Set<String> = DumpDoubles.binaryExtensions.union(["npy", "f32", "f16", "i16", "i32", "u8", "u16", "pcm"])

    private var inputs: [String] {
        files.isEmpty && batch.filesFrom == nil && isatty(STDIN_FILENO) == 0 ? ["-"] : files
    }

    private var fieldNames: [String]? { names.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } }

    func validate() throws {
        guard !inputs.isEmpty || batch.filesFrom != nil else {
            throw ValidationError("Give at least one file ('-' for standard input), or pipe one in.")
        }
        try InputList.validate(inputs)
        if let stride, stride < 1 { throw ValidationError("--stride must be 1 or more.") }
        if let type {
            let record = try recordLayout(type)
            if !record.isScalar && list.columns != 1 { throw ValidationError("--columns applies to one type; a record is one line.") }
        }
    }

    /// Without --type, every input must say its own: a .npy file (folders are looked into first).
    private func checkTypesAreKnown(_ inputs: [BatchInput]) throws {
        guard type == nil, !npy, let untyped = inputs.first(where: { $0.problem == nil && !$0.path.lowercased().hasSuffix(".npy") }) else { return }
        throw ValidationError("Give --type (\(ElementType.list), or a record such as 'f64,i32'), or .npy files: \(untyped.path) is not one.")
    }

    /// A .npy file's header gives its layout and where its data starts: options that would say
    /// otherwise are refused, not passed over in silence.
    private func checkLayoutOptionsApply(_ inputs: [BatchInput]) throws {
        guard let file = inputs.first(where: { $0.problem == nil && (npy || $0.path.lowercased().hasSuffix(".npy")) }) else { return }
        let given = [(type != nil, "--type"), (byteOrder.given != nil, "--endian"), (stride != nil, "--stride"),
                     (align != .packed, "--align"), (selection.offset.value != 0, "--offset")].filter(\.0).map(\.1)
        guard !given.isEmpty else { return }
        throw ValidationError("\(given.joined(separator: ", ")) \(given.count == 1 ? "does" : "do") not apply to a .npy file, whose header gives its layout: \(file.path).")
    }

    private func recordLayout(_ type: String) throws -> RecordLayout {
        do {
            return try RecordLayout(parsing: type, byteOrder: byteOrder.byteOrder, alignment: align, stride: stride, names: fieldNames)
        } catch {
            throw ValidationError("--type: \(error)")
        }
    }

    func run() throws {
        let inputs = try batch.inputs(self.inputs, extensions: Self.binaryExtensions)
        try checkTypesAreKnown(inputs)
        try checkLayoutOptionsApply(inputs)
        let record = try type.map(recordLayout) ?? RecordLayout(scalar: .f64, byteOrder: byteOrder.byteOrder)
        let npy = self.npy
        try selection.dump(inputs, options: selection.dumpOptions(record: record, list: list),
                           readsNPY: { npy || $0.lowercased().hasSuffix(".npy") })
    }
}
