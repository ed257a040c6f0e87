import Failures
/// Why a picture could not be written or read as WebP.
public enum WebPError: Error, Equatable, CustomStringConvertible {
    case tooLarge(width: Int, height: Int)
    case encodingFailed
    /// libwebpmux's WebPMuxError, for the chunk being added.
    case muxFailed(chunk: String, code: Int)
    /// libwebp could not decode the file, and why.
    case decodingFailed(String)

    public var description: String {
        switch self {
        case .tooLarge(let width, let height): return "WebP holds at most 16383x16383 pixels, not \(width)x\(height)"
        case .encodingFailed: return "libwebp could not encode the picture"
        case .muxFailed(let chunk, let code): return "libwebpmux could not add the \(chunk) chunk (error \(code))"
        case .decodingFailed(let why): return "WebP: \(why)"
        }
    }
}

extension WebPError: ClassifiedError {
    public var failureKind: FailureKind {
        switch self {
        case .tooLarge: return .overLimit
        case .encodingFailed, .muxFailed: return .internalFailure
        case .decodingFailed: return .damaged
        }
    }
}
