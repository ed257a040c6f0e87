/// Checks that keep outputs off inputs.
public enum OutputGuard {
    /// Throws when `output` names the same file as one of `inputs`, by any path.
    public static func refuseInputs(_ inputs: [String], asOutput output: String) throws(OutputError) {
        guard let target = FileIdentity(path: output) else { return }
        for input in inputs where input != "-" && FileIdentity(path: input) == target {
            throw .wouldOverwriteInput(path: output)
        }
    }

    /// Throws when `output` is the file `input` has open.
    public static func refuse(_ input: InputFile, asOutput output: String) throws(OutputError) {
        if FileIdentity(path: output) == input.identity { throw .wouldOverwriteInput(path: output) }
    }
}
