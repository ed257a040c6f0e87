import Failures
/// Why a JPEG could not be read.
public enum JPEGError: Error, Equatable, CustomStringConvertible {
    /// libjpeg refused, or warned that the data is corrupt, with its own message.
    case library(message: String)
    /// CMYK and YCCK pictures are not converted.
    case cmykUnsupported

    public var description: String {
        switch self {
        case .library(let message):
            return message
        case .cmykUnsupported:
            return "CMYK JPEG is not supported (convert it to RGB first)"
        }
    }

    static func text(of message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension JPEGError: ClassifiedError {
    public var failureKind: FailureKind {
        switch self {
        case .library: return .damaged
        case .cmykUnsupported: return .unsupportedFormat
        }
    }
}
