import Failures
/// Why a storyboard could not be made, beyond what the video and the outputs say.
public enum StoryboardError: Error, Equatable, CustomStringConvertible {
    /// The container states no duration, and the range needs one.
    case unknownDuration
    /// A picture (a still, or an animation such as a GIF): a storyboard is made of a video's frames.
    case picture
    /// Sheets of `columns` x `rows` cells of `cellWidth` x `cellHeight` pixels would be larger than the format or memory allows.
    case sheetTooLarge(width: Int, height: Int, limit: Int)
    /// The page would take the name of the WebVTT file or of a picture of the same storyboard.
    case pageNamedAsAnOutput(page: String, output: String)
    /// Most cells showed the frame of the cell before: the video has far fewer frames than cells.
    case mostlyRepeats(repeated: Int, cells: Int)

    public var description: String {
        switch self {
        case .unknownDuration:
            return "the duration is unknown, so frames cannot be spread over it: give --to in seconds"
        case .picture:
            return "a picture, not a video: a storyboard is made of a video's frames (thumbnail makes pictures of pictures)"
        case .pageNamedAsAnOutput(let page, let output):
            return "--html \(page) is \(output), which this storyboard writes too: give the page another name"
        case .mostlyRepeats(let repeated, let cells):
            return "\(repeated) of the first \(cells) cells show the frame of the cell before: the video has far fewer frames than cells (two frames 27 hours apart make 100000 cells of two pictures): give a longer --every, or --count"
        case .sheetTooLarge(let width, let height, let limit):
            return "a sheet would be \(width)x\(height) pixels, past the \(limit) a side (or 100 million pixels) the format and memory allow: give a smaller --tile or --width"
        }
    }
}

extension StoryboardError: ClassifiedError {
    public var failureKind: FailureKind {
        switch self {
        case .unknownDuration, .pageNamedAsAnOutput: return .invalidRequest
        case .picture: return .noVideo
        case .sheetTooLarge: return .overLimit
        // The file claims a duration its frames do not fill.
        case .mostlyRepeats: return .damaged
        }
    }
}
