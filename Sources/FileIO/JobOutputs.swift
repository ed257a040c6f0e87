/// Where a job writes: its planned output, opened before the work, and others it opens as it goes.
public protocol JobOutputs: AnyObject {
    /// The planned output's descriptor.
    var primary: Int32 { get }
    /// Every output planned for the input, the primary first: the job opens the others by these names.
    var planned: [PlannedOutput] { get }
    /// Another output, to appear with the planned one; its descriptor.
    func open(_ path: String, namedByUser: Bool) throws -> Int32
    /// The output `descriptor` (one `open` gave) is written whole: its descriptor is closed, and the
    /// job writes it no more. A job of many outputs says so of each, so that what it holds open
    /// does not grow with their number; an output never finished is closed at the end.
    func finish(_ descriptor: Int32) throws
    /// A long job's progress (a web video's frames made so far).
    func progress(_ progress: JobProgress)
}

extension JobOutputs {
    /// A long job's progress: a worker tells its parent, for whom a job that goes on is not
    /// stuck; outputs that show nothing ignore it.
    public func progress(_ progress: JobProgress) {}
}

/// How far a long job (a web video) has got: what a progress line and `--json`'s progress
/// events show, and what tells a worker's parent that the job is not stuck.
public struct JobProgress: Sendable, Equatable {
    /// Frames made so far.
    public var frames: Int
    /// The video's time made so far, in milliseconds.
    public var milliseconds: Int
    /// The video's length as its file states it, in milliseconds; nil where it states none. A
    /// stranger's claim: shown, never trusted for a limit.
    public var totalMilliseconds: Int?

    public init(frames: Int, milliseconds: Int, totalMilliseconds: Int?) {
        self.frames = frames
        self.milliseconds = milliseconds
        self.totalMilliseconds = totalMilliseconds
    }

    /// The part done, 0 to 1, where the length is stated (a claim past which the job goes on
    /// shows 0.99 until it ends).
    public var fraction: Double? {
        guard let total = totalMilliseconds, total > 0 else { return nil }
        return min(0.99, Double(milliseconds) / Double(total))
    }
}
