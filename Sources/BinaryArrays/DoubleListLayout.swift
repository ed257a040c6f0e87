/// How a list of doubles is laid out as text.
public enum DoubleListFormat: String, CaseIterable, Sendable {
    /// Values separated by spaces, `columns` a line.
    case text
    /// Values separated by commas, `columns` a row.
    case csv
    /// An array of numbers (of rows with `columns` > 1); NaN and infinities as strings.
    case json
}

public struct DoubleListLayout: Sendable, Equatable {
    public var format: DoubleListFormat
    /// Values a line (text, csv) or a row (json); at least 1.
    public var columns: Int
    /// Each line starts with the index of its first value (text, csv).
    public var showsIndex: Bool
    /// Each value is followed by its 8 bytes as they stand in the file, in uppercase hex.
    public var showsHex: Bool
    /// A first line naming the columns (csv).
    public var showsHeader: Bool

    public init(format: DoubleListFormat = .text, columns: Int = 1, showsIndex: Bool = false,
                showsHex: Bool = false, showsHeader: Bool = false) {
        self.format = format
        self.columns = columns
        self.showsIndex = showsIndex
        self.showsHex = showsHex
        self.showsHeader = showsHeader
    }
}
