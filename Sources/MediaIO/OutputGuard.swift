/// Checks that keep outputs off inputs.
public enum OutputGuard {
    /// Throws when `output` names the same file as one of `inputs`, by any path.
    public static func refuseInputs(_ inputs: [String], asOutput output: String) throws(OutputError) {
        guard let target = FileIdentity(path: output) else { return }
        for input in inputs where input != "-" && FileIdentity(path: input) == target {
            throw .wouldOverwriteInput(path: output)
        }
    }

    /// The checks before any work on `input` for `output`: the output is not an input, does not
    /// exist unless it may be replaced, and the input can be opened (a missing file or a folder is
    /// said as such, not as something a decoder cannot read).
    public static func preflight(input: String, output: String, overwrite: Bool) throws {
        try refuseInputs([input], asOutput: output)
        if !overwrite && FileIdentity(path: output) != nil {
            throw OutputError.exists(path: output)
        }
        _ = try InputFile(path: input)
    }
}
