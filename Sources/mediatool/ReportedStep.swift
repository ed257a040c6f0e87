import FileIO
import Reporting

/// One step of a subcommand that writes a single output from many inputs (pack-doubles,
/// pack-array): every input is tried, so one run names every bad one.
enum ReportedStep {
    /// Runs `step`; a failure is one line on standard error naming `name`, and false.
    static func succeeds(_ name: String, _ step: () throws -> Void) -> Bool {
        do {
            try step()
            return true
        } catch {
            Diagnostics.error(name == "-" ? InputFile.standardInputName : name, "\(error)")
            return false
        }
    }
}
