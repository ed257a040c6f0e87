import Glibc

/// The one-line messages every subcommand gives on standard error.
public enum Diagnostics {
    public static let programName = "mediatool"

    /// `mediatool: <subject>: <message>`
    public static func error(_ subject: String, _ message: String) {
        emit("\(programName): \(subject): \(oneLine(message))\n")
    }

    /// `mediatool: warning: <subject>: <message>`
    public static func warning(_ subject: String, _ message: String) {
        emit("\(programName): warning: \(subject): \(oneLine(message))\n")
    }

    /// Line breaks would split one error into several lines a script cannot pair up.
    public static func oneLine(_ message: String) -> String {
        String(message.map { $0.isNewline ? " " : $0 })
    }

    /// Text as it is, for a progress bar redrawn in place.
    public static func raw(_ text: String) {
        emit(text)
    }

    private static func emit(_ line: String) {
        writeWhole(line, to: STDERR_FILENO)
    }
}
