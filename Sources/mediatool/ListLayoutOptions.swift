import ArgumentParser
import BinaryArrays

extension DoubleListFormat: ExpressibleByArgument {}

/// How `dump-doubles` and `dump-array` lay values out, or summarise them.
struct ListLayoutOptions<Help: ArrayHelp>: ParsableArguments {
    @Option(help: "Output format: text, csv or json.")
    var format: DoubleListFormat = .text

    @Option(help: ArgumentHelp(Help.columns))
    var columns: Int = 1

    @Flag(help: "Start each line with the index of its first value (text, csv).")
    var index = false

    @Flag(help: "Follow each value with its bytes as they are in the file, in hex.")
    var hex = false

    @Flag(help: "Start csv output with a line naming the columns.")
    var header = false

    @Flag(help: "Print count, min, max, mean, stddev and the counts of NaN, infinities, zeros and subnormals instead of the values (text or json).")
    var stats = false

    func validate() throws {
        guard columns >= 1 else { throw ValidationError("--columns must be 1 or more.") }
        if index && format == .json { throw ValidationError("--index applies to text and csv output.") }
        if header && format != .csv { throw ValidationError("--header applies to csv output.") }
        if stats {
            if format == .csv { throw ValidationError("--stats prints text or json.") }
            if hex || index || header || columns != 1 {
                throw ValidationError("--stats prints a summary: --hex, --index, --header and --columns do not apply.")
            }
        }
    }

    var layout: DoubleListLayout {
        DoubleListLayout(format: format, columns: columns, showsIndex: index, showsHex: hex, showsHeader: header)
    }
}
