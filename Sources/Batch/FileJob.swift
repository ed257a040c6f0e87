import FileIO
import Failures

/// A job that reads one input and writes its outputs, in the two halves a sandbox separates: the
/// opening, by the trusted process (the input opened once, each output's temporary made where it
/// belongs, inputs never overwritten), and the work on those descriptors, which decodes what
/// strangers sent and may run in a confined worker. Only the trusted process moves outputs into place.
public struct FileJob: Sendable {
    public typealias Work = @Sendable (_ input: InputFile, _ outputs: any JobOutputs, _ outputName: String) throws -> JobReport
    /// Whether a job may write `path` beside its planned outputs `planned` (the first opened before
    /// the job; `namedByUser`: a name the user gave, whose link may be followed), after the others
    /// it `opened` (in order).
    public typealias OutputRule = @Sendable (_ planned: [PlannedOutput], _ path: String, _ namedByUser: Bool, _ opened: [String]) -> Bool

    /// Throws when a stream's first bytes are nothing the job reads (see `InputFile.randomAccess`).
    public var recognise: (@Sendable (UnsafeRawBufferPointer) throws -> Void)?
    /// What an input that is a stream may cost before it is refused: its size and its silences.
    public var streams = StreamLimits()
    public var policy: OutputPolicy
    /// Reads `input`, writes its outputs whole to the descriptors `outputs` gives, never moves or names a file.
    public var work: Work
    /// The outputs a job may open besides its planned one (a storyboard's pictures and page); nil: none.
    public var allowsOutput: OutputRule?
    /// The decoders an input needs, from the open input (its first bytes, mostly): a worker made
    /// for pictures starts without loading FFmpeg (about 40 ms and 20 MiB).
    public var decoders: @Sendable (_ input: InputFile) -> JobDecoders = { _ in .media }
    /// Its planned output is sought back in and read (a web video's muxer patches sizes and moves
    /// its index first): a worker writes that file itself, within its file size limit, where the
    /// output is a file; through a pipe otherwise (standard output), where the job must stream.
    public var writesInPlace = false
    /// Outputs besides the planned one that are likewise sought back in (an ingest's web video):
    /// a worker writes each itself, where it is a file; nil: none.
    public typealias InPlaceRule = @Sendable (_ planned: [PlannedOutput], _ path: String) -> Bool
    public var writesInPlaceBeside: InPlaceRule?
    /// A long job by nature (a web video, an HLS ladder) that says how far it has got: its
    /// worker's progress moves its stall deadline on, and is shown.
    public var progresses = false

    public init(recognise: (@Sendable (UnsafeRawBufferPointer) throws -> Void)?, policy: OutputPolicy,
                allowsOutput: OutputRule? = nil, work: @escaping Work) {
        self.recognise = recognise
        self.policy = policy
        self.allowsOutput = allowsOutput
        self.work = work
    }

    /// The same job, its inputs' streams held to `limits`.
    public func limitingStreams(to limits: StreamLimits) -> FileJob {
        var job = self
        job.streams = limits
        return job
    }

    /// The input and the first planned output's temporary, opened as every job opens them (see
    /// `OutputGuard.open`); the job opens the others it writes.
    public func open(input: String, outputs planned: [PlannedOutput]) throws -> (InputFile, OutputSet) {
        let (file, target) = try OutputGuard.open(input: input, output: planned[0].path, policy: policy, streams: streams, recognise: recognise)
        return (file, OutputSet(planned: target, outputs: planned, policy: policy, rule: allowsOutput))
    }

    /// The input and, where any are planned, the outputs: a job that writes nothing (`probe`, whose
    /// report is its result) plans none and gets none.
    public func openAny(input: String, outputs planned: [PlannedOutput]) throws -> (InputFile, OutputSet?) {
        if planned.isEmpty { return (try InputFile(path: input).randomAccess(limits: streams, recognise: recognise), nil) }
        let (file, outputs) = try open(input: input, outputs: planned)
        return (file, outputs)
    }

    /// The whole job in this process: opened, worked, committed; `progress` is told how far a
    /// long job has got.
    public func run(input: String, outputs planned: [PlannedOutput], progress: (@Sendable (JobProgress) -> Void)? = nil) throws -> JobReport {
        let (file, outputs) = try openAny(input: input, outputs: planned)
        outputs?.reportsProgress = progress
        let report = try work(file, outputs ?? NoOutputs(), planned.first?.path ?? "")
        try outputs?.commit()
        return report
    }

    public func run(input: String, output: String) throws -> JobReport {
        try run(input: input, outputs: [PlannedOutput(path: output)])
    }
}

/// What a worker must load before it is confined, for the inputs it will be sent.
public enum JobDecoders: String, Sendable {
    /// The picture codecs only.
    case pictures
    /// FFmpeg too.
    case media
}

/// The outputs of a job that writes none: every one it asks for is refused.
public final class NoOutputs: JobOutputs {
    public init() {}
    public var primary: Int32 { -1 }
    public var planned: [PlannedOutput] { [] }
    public func open(_ path: String, namedByUser: Bool) throws -> Int32 { throw JobOutputError.notAllowed(path: path) }
    public func finish(_ descriptor: Int32) {}
}

/// The outputs of one job, made in this process: every one a temporary until `commit` moves them
/// into place together, the planned one last (a storyboard's index after the pictures it names).
public final class OutputSet: JobOutputs {
    private let target: AtomicOutputFile
    public let planned: [PlannedOutput]
    private let name: String
    private let policy: OutputPolicy
    private let rule: FileJob.OutputRule?
    private var others = AtomicOutputGroup()
    /// The paths of `others`, in order and as a set: a job of thousands checks each name in O(1).
    private var openedPaths: [String] = []
    private var openedSet: Set<String> = []
    /// Those of `others` still open: a few, however many the job writes (see `finish`).
    private var writing: [AtomicOutputFile] = []
    /// More than any job writes: a worker gone wrong does not fill a folder.
    public static let limit = 100_000

    init(planned target: AtomicOutputFile, outputs planned: [PlannedOutput], policy: OutputPolicy, rule: FileJob.OutputRule?) {
        self.target = target
        self.planned = planned
        self.name = planned[0].path
        self.policy = policy
        self.rule = rule
    }

    public var primary: Int32 { target.descriptor }

    /// Who shows the job's progress; nil: nobody.
    var reportsProgress: (@Sendable (JobProgress) -> Void)?

    public func progress(_ progress: JobProgress) { reportsProgress?(progress) }

    public func open(_ path: String, namedByUser: Bool) throws -> Int32 {
        // Each name once: a second one would replace the first, unseen.
        let isPlanned = planned.dropFirst().contains { $0.path == path }
        guard path != name, !openedSet.contains(path), isPlanned || rule?(planned, path, namedByUser, openedPaths) == true,
              openedPaths.count < Self.limit else {
            throw JobOutputError.notAllowed(path: path)
        }
        // A name the job made is never followed through a link; one the user gave may be (a planned
        // one as the primary is: named by the user when the primary was).
        let namedByUser = isPlanned ? policy.isNamedByUser : namedByUser
        var outputPolicy = policy
        outputPolicy.isNamedByUser = namedByUser
        let output = try AtomicOutputFile(path: path, policy: outputPolicy)
        others.append(output)
        openedPaths.append(path)
        openedSet.insert(path)
        writing.append(output)
        return output.descriptor
    }

    /// Closes a finished output (not the planned one, which is moved into place last), named after
    /// an output still open in its folder; the first in a folder stays open, as the others' anchor.
    public func finish(_ descriptor: Int32) throws {
        guard let index = writing.firstIndex(where: { $0.descriptor == descriptor }) else { return }
        let output = writing[index]
        let anchor = output.sharesFolder(with: target) ? target
            : writing.first { $0 !== output && $0.sharesFolder(with: output) }
        guard let anchor else { return }
        writing.remove(at: index)
        try output.finish(besides: anchor)
    }

    /// Moves every output into place, the planned one last, or none (but those another run made
    /// meanwhile, with `OutputPolicy.keepsOtherRunsOutputs`).
    public func commit() throws {
        var all = others
        all.append(target)
        try all.commit(keepingOthers: policy.keepsOtherRunsOutputs)
    }
}

/// An output a job asked for that is not one of its own.
public enum JobOutputError: Error, Equatable, CustomStringConvertible {
    case notAllowed(path: String)
    /// More outputs open at once than any job holds.
    case tooManyOpen(limit: Int)

    public var description: String {
        switch self {
        case .notAllowed(let path): return "the job asked to write \(path), which is none of its outputs: refused"
        case .tooManyOpen(let limit): return "the job asked for more than \(limit) outputs open at once: refused"
        }
    }
}

extension JobOutputError: ClassifiedError {
    public var failureKind: FailureKind {
        // A worker that asks for outputs not its own was taken over by its file.
        .damaged
    }
}
