import ArgumentParser
import Imaging

/// PNG output settings, shared by the subcommands that write PNG.
struct PNGOptions: ParsableArguments {
    @Option(name: .customLong("png-compression"), help: "PNG zlib compression level, 0 (fastest) to 9 (smallest).")
    var compression: Int = PNGFile.defaultCompressionLevel

    func validate() throws {
        guard (0...9).contains(compression) else { throw ValidationError("--png-compression takes 0 to 9.") }
    }
}
