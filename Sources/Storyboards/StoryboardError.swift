/// Why a storyboard could not be made, beyond what the video and the outputs say.
public enum StoryboardError: Error, Equatable, CustomStringConvertible {
    /// The container states no duration, and the range needs one.
    case unknownDuration

    public var description: String {
        switch self {
        case .unknownDuration:
            return "the duration is unknown, so frames cannot be spread over it: give --to in seconds"
        }
    }
}
