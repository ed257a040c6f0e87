import Failures
import Imaging

/// Why a web video was not made from an input, or not finished.
public enum FaststartError: Error, Equatable, CustomStringConvertible {
    /// The muxer's own output did not read back as an MP4 with one `moov` and media data.
    case notAnMP4(target: String)
    /// A `moov` past what this moves in memory.
    case movieTooLarge(bytes: Int, target: String)
    /// Chunk offsets moved past 4 GiB in 32-bit fields.
    case offsetsPast4GiB(target: String)

    public var description: String {
        switch self {
        case .notAnMP4(let target):
            return "\(target) did not read back as the MP4 just written (its moov or media data missing)"
        case .movieTooLarge(let bytes, let target):
            return "\(target)'s moov is \(bytes) bytes, past the \(MP4Faststart.mostMovieBytes >> 20) MiB moved before its media data"
        case .offsetsPast4GiB(let target):
            return "\(target) is within its moov's size of 4 GiB, where moving the moov first needs 64-bit offsets: make a shorter or smaller video"
        }
    }
}

extension FaststartError: ClassifiedError {
    public var failureKind: FailureKind {
        switch self {
        case .notAnMP4: return .internalFailure
        case .movieTooLarge, .offsetsPast4GiB: return .overLimit
        }
    }
}

/// Why an input gave no web video.
public enum TranscodeError: Error, Equatable, CustomStringConvertible {
    /// A picture (a still, or an animation FFmpeg reads as one): a web video is made of a video.
    case picture
    /// The video runs past the longest made.
    case tooLong(limit: Double)
    /// x264 at this size and preset (with `renditions` - 1 smaller ones beside it: an HLS ladder)
    /// needs more memory than the limit leaves beside what decoding holds (`held`).
    case encoderOverMemory(needed: Int, held: Int, limit: Int, width: Int, height: Int, preset: String, renditions: Int = 1)

    public var description: String {
        switch self {
        case .picture:
            return "a picture, not a video: a web video is made of a video's frames (thumbnail makes pictures of pictures)"
        case .tooLong(let limit):
            return "the video runs past \(Int(limit)) s, the longest web video made (transcode --max-duration)"
        case .encoderOverMemory(let needed, let held, let limit, let width, let height, let preset, let renditions):
            let smaller = renditions > 1 ? " and \(renditions - 1) smaller renditions" : ""
            return "encoding \(width)x\(height)\(smaller) at --preset \(preset) needs \(DecodeLimitError.mebibytes(needed)) of memory beside the "
                + "\(DecodeLimitError.mebibytes(held)) decoding holds, over the limit of \(DecodeLimitError.mebibytes(limit, roundingUp: false)) (--max-memory): a lower --height or a faster preset needs less"
        }
    }
}

extension TranscodeError: ClassifiedError {
    public var failureKind: FailureKind {
        switch self {
        case .picture: return .noVideo
        case .tooLong, .encoderOverMemory: return .overLimit
        }
    }
}
