/// Why a storyboard could not be made, beyond what the video and the outputs say.
public enum StoryboardError: Error, Equatable, CustomStringConvertible {
    /// The container states no duration, and the range needs one.
    case unknownDuration
    /// Sheets of `columns` x `rows` cells of `cellWidth` x `cellHeight` pixels would be larger than the format or memory allows.
    case sheetTooLarge(width: Int, height: Int, limit: Int)

    public var description: String {
        switch self {
        case .unknownDuration:
            return "the duration is unknown, so frames cannot be spread over it: give --to in seconds"
        case .sheetTooLarge(let width, let height, let limit):
            return "a sheet would be \(width)x\(height) pixels, past the \(limit) a side (or 100 million pixels) the format and memory allow: give a smaller --tile or --width"
        }
    }
}
