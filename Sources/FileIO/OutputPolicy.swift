/// What writing an output may do to what is already at its path.
public struct OutputPolicy: Sendable, Codable, Equatable {
    /// An existing regular file may be replaced.
    public var overwrite: Bool
    /// The path was named by the user (`-o FILE`): a symbolic link there is followed, and a
    /// character device or FIFO is written through, as `cp` does. A path the tool made (from a
    /// template, under `--out-dir`) is never followed out of its folder and never replaces anything
    /// but a regular file.
    public var isNamedByUser: Bool
    /// The data reaches the disk before the file takes its name, and the name before the run goes
    /// on (fsync of the file, then of its folder, as git's core.fsync and rsync --fsync do): after
    /// a power loss an output is whole or absent, never there and empty. Off for scratch outputs.
    public var syncs: Bool
    /// An output that another run made meanwhile (`--skip-existing`: a restarted pod beside the
    /// old one) is theirs and stays: the rest of its group is moved into place beside it, not
    /// taken back, so that the two runs together leave every output of the input.
    public var keepsOtherRunsOutputs = false
    /// The output replaces the job's own input (`strip --in-place`): of the run's inputs, that one
    /// alone may be replaced, by a new file taking its name; it is never written to.
    public var replacesItsInput = false

    public init(overwrite: Bool, isNamedByUser: Bool = false, syncs: Bool = true) {
        self.overwrite = overwrite
        self.isNamedByUser = isNamedByUser
        self.syncs = syncs
    }
}
