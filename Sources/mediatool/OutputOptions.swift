import ArgumentParser
import MediaIO

/// Where outputs go, shared by the subcommands that write one file per input.
struct OutputOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .customLong("output")], help: "The output file (one input only).")
    var output: String?

    @Option(help: "The folder for the outputs of many inputs.")
    var outDir: String?

    @Flag(help: "Replace outputs that exist.")
    var overwrite = false

    /// Checks the inputs of a subcommand that writes one file per input: at least one, all files.
    func validate(inputs: [String], noun: String) throws {
        guard !inputs.isEmpty else { throw ValidationError("Give at least one \(noun).") }
        if inputs.contains("-") { throw ValidationError("Each \(noun) is read from a file, not from standard input.") }
        if output != nil && inputs.count > 1 {
            throw ValidationError("-o names one output: use --out-dir for \(inputs.count) inputs.")
        }
        if output != nil && outDir != nil {
            throw ValidationError("Give -o or --out-dir, not both.")
        }
    }

    func naming(suffix: String) -> OutputNaming {
        OutputNaming(explicitPath: output, directory: outDir, suffix: suffix)
    }
}
