import Failures
/// Why a PNG could not be written or read.
public enum PNGError: Error, Equatable, CustomStringConvertible {
    /// libpng refused, with its own message.
    case library(message: String)
    /// The pixels handed over do not fill the stated size.
    case pixelCountMismatch(expectedBytes: Int, foundBytes: Int)
    /// The file does not start with the PNG signature.
    case notPNG
    /// A size PNG cannot hold (0, or over 2^31 - 1).
    case invalidSize(width: Int, height: Int)

    /// A C message buffer as text.
    static func text(of message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String {
        switch self {
        case .library(let message):
            return message
        case .notPNG:
            return "not a PNG file"
        case .pixelCountMismatch(let expected, let found):
            return "expected \(expected) bytes of pixels, found \(found)"
        case .invalidSize(let width, let height):
            return "a PNG cannot be \(width)x\(height)"
        }
    }
}

extension PNGError: ClassifiedError {
    public var failureKind: FailureKind {
        switch self {
        case .notPNG: return .unsupportedFormat
        default: return .damaged
        }
    }
}
