import Foundation

/// What a test needs from the machine (root, a tool of scripts/bootstrap test). Every skip goes
/// through here: `@Test(.enabled(if: try Requirement.met(condition, "why")))`. Locally a need not
/// met skips the test, and the run says so; where `CI` is set (CI runs `CI=true scripts/test`), it
/// is an error instead, so the test fails: a skip CI needs can never pass unnoticed.
public enum Requirement {
    public struct NotMetInCI: Error, CustomStringConvertible {
        public let what: String
        public var description: String { "CI needs this test, but it would be skipped: \(what)" }
    }

    public static var isCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"] else { return false }
        return !value.isEmpty && value != "0" && value.lowercased() != "false"
    }

    /// `condition`, or, in CI, an error naming `what` when it does not hold. A throwing trait
    /// condition is recorded as the test's failure.
    public static func met(_ condition: Bool, _ what: String) throws -> Bool {
        if !condition && isCI { throw NotMetInCI(what: what) }
        return condition
    }

    /// An executable the suite checks outputs with.
    public static func tool(_ path: String) throws -> Bool {
        try met(FileManager.default.isExecutableFile(atPath: path), "\(path) is not installed (scripts/bootstrap test installs it)")
    }
}
