import Glibc
import Failures

/// A failed system call, with the C library's own words for `errno`.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    /// What was being done: "cannot open", "read failed", ...
    public let operation: String
    public let code: Int32
    /// Why, where the C library's words for `code` would not say it.
    public let reason: String?

    public init(_ operation: String, code: Int32 = errno, reason: String? = nil) {
        self.operation = operation
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(operation): \(reason ?? String(cString: strerror(code)))" }
}

extension SystemError: ClassifiedError {
    public var failureKind: FailureKind { .unreadable }
}
