import FileIO
import Glibc

/// The one-line messages every subcommand gives on standard error.
public enum Diagnostics {
    public static let programName = "mediatool"

    /// `mediatool: <subject>: <message>`
    public static func error(_ subject: String, _ message: String) {
        emit("\(programName): \(printable(subject)): \(printable(message))\n")
    }

    /// `mediatool: warning: <subject>: <message>`
    public static func warning(_ subject: String, _ message: String) {
        emit("\(programName): warning: \(printable(subject)): \(printable(message))\n")
    }

    /// A line of our own (a summary), its names made printable.
    public static func line(_ text: String) {
        emit("\(programName): \(printable(text))\n")
    }

    /// Text safe to print on one line of a terminal: a line break in a file name would split one
    /// error into lines a script cannot pair up (or forge a `summary:` line), and raw control bytes
    /// would drive the terminal. Control characters become `\n`, `\r`, `\t` or `\xNN`, and so do the
    /// bytes of a name that are not UTF-8 (see `PathBytes`).
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.append(scalar)
                continue
            }
            let escaped: String
            switch scalar {
            case "\n": escaped = "\\n"
            case "\r": escaped = "\\r"
            case "\t": escaped = "\\t"
            default:
                let value = PathBytes.byte(standingFor: scalar).map(UInt32.init) ?? scalar.value
                let hex = String(value, radix: 16)
                escaped = value > 0xFF ? "\\u{\(hex)}" : "\\x" + (hex.count < 2 ? "0" : "") + hex
            }
            result.append(contentsOf: escaped.unicodeScalars)
        }
        return String(result)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
            || scalar == "\u{2028}" || scalar == "\u{2029}" || PathBytes.isByteScalar(scalar)
            // Bidirectional controls reorder what a terminal shows: a name could pass for another.
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            || scalar.value == 0x200E || scalar.value == 0x200F || scalar.value == 0x061C
    }

    /// Text as it is, for a progress bar redrawn in place.
    public static func raw(_ text: String) {
        emit(text)
    }

    private static func emit(_ line: String) {
        // Nothing is left to tell a failure to standard error to.
        var line = line
        line.withUTF8 { bytes in _ = try? FileSystem.writeAll(UnsafeRawBufferPointer(bytes), to: STDERR_FILENO, target: "standard error") }
    }
}
