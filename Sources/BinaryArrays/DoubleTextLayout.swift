/// What else than values a text of numbers holds, as `dump-doubles` wrote it: `pack-doubles` is
/// given the same `--index`, `--hex` and `--header` to read it back.
public struct DoubleTextLayout: Sendable, Equatable {
    /// Each line starts with the index of its first value: `12:` (text) or `12` (csv).
    public var hasIndex: Bool
    /// Each value is followed by its 8 bytes as they stood in the dumped file, in hex.
    public var hasHex: Bool
    /// The first line of each file names the columns (csv).
    public var hasHeader: Bool

    public init(hasIndex: Bool = false, hasHex: Bool = false, hasHeader: Bool = false) {
        self.hasIndex = hasIndex
        self.hasHex = hasHex
        self.hasHeader = hasHeader
    }
}
