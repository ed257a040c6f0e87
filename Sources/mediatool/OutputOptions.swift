import ArgumentParser
import Batch
import MediaIO

/// Where outputs go, shared by the subcommands that write one file per input.
struct OutputOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .customLong("output")], help: "The output file (one input only).")
    var output: String?

    @Option(help: "The folder for the outputs, each at its input's path under the folder it was found in.")
    var outDir: String?

    @Option(help: ArgumentHelp("Name outputs by this template: {stem}, {ext} (the input's extension), {dir} (its folder's name).", valueName: "template"))
    var name: String?

    @Flag(help: "Replace outputs that exist.")
    var overwrite = false

    func validate() throws {
        if output != nil && outDir != nil { throw ValidationError("Give -o or --out-dir, not both.") }
        if output != nil && name != nil { throw ValidationError("Give -o or --name, not both.") }
    }

    /// The plan for `inputs`, refused before any work when -o meets several inputs, two inputs
    /// would write one output, an output is an input, or an output would land outside its folder.
    func plan(for inputs: [BatchInput], defaultTemplate: String) throws -> OutputPlan {
        if output != nil && inputs.count != 1 {
            throw ValidationError("-o names one output: use --out-dir for \(inputs.count) inputs.")
        }
        let plan = OutputPlan(explicitPath: output, directory: outDir, template: name ?? defaultTemplate)
        do {
            try plan.check(inputs)
        } catch {
            throw ValidationError(Diagnostics.printable(error.description))
        }
        return plan
    }

    /// What writing an output may do to what is at its path.
    var policy: OutputPolicy { OutputPolicy(overwrite: overwrite, isNamedByUser: output != nil) }

    /// The extension of `-o FILE`, lowercased, if it has one.
    var explicitExtension: String? {
        guard let output, let dot = output.lastIndex(of: "."), !output[dot...].contains("/") else { return nil }
        return String(output[output.index(after: dot)...]).lowercased()
    }
}
