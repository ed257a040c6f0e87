/// Checks that keep outputs off inputs.
public enum OutputGuard {
    /// Throws when `output` names the same file as one of `inputs`, by any path.
    public static func refuseInputs(_ inputs: [String], asOutput output: String) throws(OutputError) {
        guard let target = FileIdentity(path: output) else { return }
        for input in inputs where input != "-" && FileIdentity(path: input) == target {
            throw .wouldOverwriteInput(path: output)
        }
    }
}
