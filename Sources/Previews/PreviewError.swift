import FFmpeg

/// Why a video gave no moving preview.
public enum PreviewError: Error, Equatable, CustomStringConvertible {
    case schedule(ScheduleProblem)
    /// The pieces are spread over the duration, which the file does not state.
    case unknownDuration
    /// A still picture: a preview is made of a video's frames.
    case picture
    /// Even the lowest quality tried gives a file over `--max-bytes`.
    case tooLarge(bytes: Int, limit: Int, quality: Int)

    public var description: String {
        switch self {
        case .schedule(let problem):
            return problem.description
        case .unknownDuration:
            return "the duration is unknown, so the segments cannot be spread over it: give --from and --to in seconds"
        case .picture:
            return "a still picture, not a video: a preview is made of a video's frames (thumbnail makes pictures of pictures)"
        case .tooLarge(let bytes, let limit, let quality):
            return "the preview takes \(bytes) bytes even at quality \(quality), over the limit of \(limit) (--max-bytes): ask for fewer or smaller frames"
        }
    }
}
