import CFFmpeg
import Failures

/// A negative return code from FFmpeg, with what was being done and `av_strerror`'s words for it.
public struct FFmpegError: Error, Equatable, CustomStringConvertible {
    public let operation: String
    public let code: Int32
    /// What FFmpeg's log said of it (`moov atom not found`), where the code says less (`Invalid
    /// data found when processing input`).
    public let cause: String?

    public init(_ operation: String, code: Int32, cause: String? = nil) {
        self.operation = operation
        self.code = code
        self.cause = cause
    }

    public var message: String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String { "\(operation): \(cause ?? message)" }

    /// The input's first bytes are of no format FFmpeg knows (`FormatContext.recognise`).
    public var isUnrecognisedFormat: Bool { operation == Self.unrecognised }
    static let unrecognised = "not a media file FFmpeg can open"

    /// `code` itself when it is 0 or more; a thrown error when negative.
    @discardableResult
    static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(FFmpegError) -> Int32 {
        if code < 0 { throw FFmpegError(operation(), code: code) }
        return code
    }

    static let endOfFile = cffmpeg_averror_eof()
    static let tryAgain = cffmpeg_averror_eagain()
}

extension FFmpegError: ClassifiedError {
    public var failureKind: FailureKind {
        isUnrecognisedFormat ? .unsupportedFormat : .damaged
    }
}
