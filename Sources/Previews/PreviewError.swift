import FFmpeg
import Imaging
import Failures

/// Why a video gave no moving preview.
public enum PreviewError: Error, Equatable, CustomStringConvertible {
    case schedule(ScheduleProblem)
    /// The pieces are spread over the duration, which the file does not state.
    case unknownDuration
    /// A picture (a still, or an animation: WebP, GIF, APNG): a preview is made of a video's frames.
    case picture
    /// Frames past the largest a preview is made at.
    case framesTooLarge(width: Int, height: Int)
    /// Decoding, encoding and (`keepsFrames`) the frames kept for `--max-bytes`'s second tries
    /// would take more than the run's memory.
    case overMemory(needed: Int, limit: Int, keepsFrames: Bool)
    /// Even the lowest quality tried gives a file over `--max-bytes`.
    case tooLarge(bytes: Int, limit: Int, quality: Int)

    public var description: String {
        switch self {
        case .schedule(let problem):
            return problem.description
        case .unknownDuration:
            return "the file states no duration, which pieces spread over the video and percentages need: give --from and --to in seconds"
        case .picture:
            return "a picture, not a video: a preview is made of a video's frames (thumbnail makes pictures of pictures)"
        case .framesTooLarge(let width, let height):
            return "frames of \(width)x\(height) are past the largest a preview is made at (3840x2160's 8.3 million pixels, whose encoders hold several of them): give a smaller --width or --height"
        case .overMemory(let needed, let limit, let keepsFrames):
            let what = keepsFrames ? "its decoding, its encoder, the frames decoded ahead and those kept to encode again for --max-bytes"
                : "its decoding, its encoder and the frames decoded ahead"
            return "the preview needs \(DecodeLimitError.mebibytes(needed)) (\(what)), over --max-memory's \(DecodeLimitError.mebibytes(limit, roundingUp: false)): give a larger --max-memory, or fewer or smaller frames"
        case .tooLarge(let bytes, let limit, let quality):
            return "the preview takes \(bytes) bytes even at quality \(quality), over the limit of \(limit) (--max-bytes): ask for fewer or smaller frames"
        }
    }
}

extension PreviewError: ClassifiedError {
    public var failureKind: FailureKind {
        switch self {
        case .schedule(let problem): return problem.failureKind
        case .unknownDuration: return .invalidRequest
        case .picture: return .noVideo
        case .framesTooLarge, .overMemory, .tooLarge: return .overLimit
        }
    }
}
