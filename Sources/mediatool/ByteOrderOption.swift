import ArgumentParser
import BinaryArrays

extension ByteOrder: ExpressibleByArgument {}

/// `--endian`, shared by the subcommands that read or write binary numbers.
struct ByteOrderOption: ParsableArguments {
    @Option(name: .customLong("endian"), help: "Byte order of the binary values: little or big (default: little).")
    var given: ByteOrder?

    var byteOrder: ByteOrder { given ?? .little }
}
