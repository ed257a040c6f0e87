import FileIO

/// A strip job as the command line builds it and a worker receives it.
public struct StripOptions: Sendable, Codable {
    /// What is removed.
    public var groups: Set<StripGroup> = StripGroup.removedByDefault
    public var output = OutputPolicy(overwrite: false)

    public init() {}
}
