import FileIO

/// A job that reads one input and writes one output, in the two halves a sandbox separates: the
/// opening, by the trusted process (the input opened once, the output's temporary made where it
/// belongs, inputs never overwritten), and the work on those descriptors, which decodes what
/// strangers sent and may run in a confined worker. Only the trusted process moves outputs into place.
public struct FileJob: Sendable {
    public typealias Work = @Sendable (_ input: InputFile, _ output: Int32, _ outputName: String) throws -> JobReport

    /// Throws when a stream's first bytes are nothing the job reads (see `InputFile.randomAccess`).
    public var recognise: (@Sendable (UnsafeRawBufferPointer) throws -> Void)?
    public var policy: OutputPolicy
    /// Reads `input`, writes the whole output to the descriptor `output`, never moves or names a file.
    public var work: Work

    public init(recognise: (@Sendable (UnsafeRawBufferPointer) throws -> Void)?, policy: OutputPolicy, work: @escaping Work) {
        self.recognise = recognise
        self.policy = policy
        self.work = work
    }

    /// The input and the output's temporary, opened as every job opens them (see `OutputGuard.open`).
    public func open(input: String, output: String) throws -> (InputFile, AtomicOutputFile) {
        try OutputGuard.open(input: input, output: output, policy: policy, recognise: recognise)
    }

    /// The whole job in this process: opened, worked, committed.
    public func run(input: String, output: String) throws -> JobReport {
        let (file, target) = try open(input: input, output: output)
        let report = try work(file, target.descriptor, output)
        try target.commit()
        return report
    }
}
