import Failures
/// Why the frames asked of a video cannot be scheduled: what a storyboard and a moving preview
/// both say when their range is empty or holds more frames than they take.
public enum ScheduleProblem: Error, Equatable, CustomStringConvertible {
    case emptyRange(from: Double, to: Double)
    /// `count` frames asked of `holder` ("a storyboard"), which takes at most `most`.
    case tooManyFrames(count: Int, most: Int, holder: String)

    public var description: String {
        switch self {
        case .emptyRange(let from, let to):
            return "no frames between \(from) s and \(to) s (the range is empty, or past the end of the video)"
        case .tooManyFrames(let count, let most, let holder):
            return "\(count) frames asked for; \(holder) holds at most \(most)"
        }
    }
}

extension ScheduleProblem: ClassifiedError {
    public var failureKind: FailureKind {
        switch self {
        case .emptyRange: return .invalidRequest
        case .tooManyFrames: return .overLimit
        }
    }
}
