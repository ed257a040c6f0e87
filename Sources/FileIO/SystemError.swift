import Glibc

/// A failed system call, with the C library's own words for `errno`.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    /// What was being done: "cannot open", "read failed", ...
    public let operation: String
    public let code: Int32

    public init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}
