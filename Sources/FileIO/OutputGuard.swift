/// Checks that keep outputs off inputs.
public enum OutputGuard {
    /// Throws when `output` names the same file as one of `inputs`, by any path.
    public static func refuseInputs(_ inputs: [String], asOutput output: String) throws(OutputError) {
        guard let target = FileIdentity(path: output) else { return }
        for input in inputs where input != "-" && FileIdentity(path: input) == target {
            throw .wouldOverwriteInput(path: output)
        }
    }

    /// The start of every job that reads one picture or video and writes one file: the input
    /// opened once (a stream read into a file decoders can seek), the output checked not to be it,
    /// and the output's temporary (or device) opened. `-o -` is standard output, which the shell
    /// opened, never compared with the input as the file named "-" or as standard input.
    public static func open(input: String, output: String, policy: OutputPolicy) throws -> (InputFile, AtomicOutputFile) {
        let file = try InputFile(path: input).randomAccess()
        let isStandardOutput = output == AtomicOutputFile.standardOutputName && policy.isNamedByUser
        if !isStandardOutput && FileIdentity(path: output) == file.identity { throw OutputError.wouldOverwriteInput(path: output) }
        return (file, try AtomicOutputFile(path: output, policy: policy))
    }
}
