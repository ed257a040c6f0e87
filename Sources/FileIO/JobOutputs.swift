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
    func progress(frames: Int)
}

extension JobOutputs {
    /// A long job's progress (a web video's frames made so far): a worker tells its parent, for
    /// whom a job that goes on is not stuck; in this process nothing is waiting on it.
    public func progress(frames: Int) {}
}
