/// Checks that keep outputs off inputs.
public enum OutputGuard {
    /// Makes `inputs` inputs of the run (`-`: standard input's file) and throws when `output` is
    /// one of them, by any path.
    public static func refuseInputs(_ inputs: [String], asOutput output: String) throws(OutputError) {
        RunInputs.register(paths: inputs)
        if RunInputs.contains(path: output) { throw .wouldOverwriteInput(path: output) }
    }

    /// The start of every job that reads one picture or video and writes one file: the input
    /// opened once (a stream read into a file decoders can seek) and the output's temporary (or
    /// device) opened, which refuses any input of the run (see `RunInputs`) and this one by its
    /// descriptor. `-o -` is standard output, which the shell opened, never compared with the input.
    /// `recognise`: a stream's first bytes are checked before the rest is copied, within `streams`
    /// (see `randomAccess`).
    public static func open(input: String, output: String, policy: OutputPolicy, streams: StreamLimits = StreamLimits(),
                            recognise: ((UnsafeRawBufferPointer) throws -> Void)? = nil) throws -> (InputFile, AtomicOutputFile) {
        let file = try InputFile(path: input).randomAccess(limits: streams, recognise: recognise)
        let isStandardOutput = output == AtomicOutputFile.standardOutputName && policy.isNamedByUser
        if !isStandardOutput && FileIdentity(path: output) == file.identity {
            guard policy.replacesItsInput else { throw OutputError.wouldOverwriteInput(path: output) }
            return (file, try AtomicOutputFile(path: output, policy: policy, replacing: file.identity))
        }
        return (file, try AtomicOutputFile(path: output, policy: policy))
    }
}
