import Failures
/// Why a video gave no picture, beyond FFmpeg's own return codes.
public enum VideoError: Error, Equatable, CustomStringConvertible {
    case noVideoStream
    /// `--stream N` past the file's video streams.
    case noSuchVideoStream(asked: Int, count: Int)
    /// `--cover` asked for cover art, and the file has none.
    case noCoverArt
    /// Nothing could be decoded; `cause` is the last error FFmpeg gave, if any.
    case noDecodableFrame(cause: String?)
    /// A time given as a share of the duration, for a file that does not state its duration.
    case unknownDuration

    public var description: String {
        switch self {
        case .noVideoStream:
            return "no video stream"
        case .noSuchVideoStream(let asked, let count):
            return "no video stream \(asked): the file has \(count) (counted from 0)"
        case .noCoverArt:
            return "no cover art (an attached picture) in the file"
        case .noDecodableFrame(let cause?):
            return "no decodable video frame (\(cause))"
        case .noDecodableFrame(nil):
            return "no decodable video frame"
        case .unknownDuration:
            return "the duration is unknown, so a percentage cannot be placed: give a time in seconds"
        }
    }
}

extension VideoError: ClassifiedError {
    public var failureKind: FailureKind {
        switch self {
        case .noVideoStream, .noCoverArt: return .noVideo
        case .noSuchVideoStream, .unknownDuration: return .invalidRequest
        case .noDecodableFrame: return .damaged
        }
    }
}
