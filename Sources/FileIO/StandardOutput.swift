import Glibc
import Synchronization

/// Whole lines to standard output, one write(2) each, so that lines from several threads never mix.
public enum StandardOutput {
    private static let firstFailure = Mutex<SystemError?>(nil)

    /// Writes `text`; a failure (a full disk, a closed pipe) is kept for `failure`, and later lines are dropped.
    public static func write(_ text: String) {
        guard failure == nil else { return }
        var text = text
        let error = text.withUTF8 { bytes -> SystemError? in
            do throws(SystemError) {
                try FileSystem.writeAll(UnsafeRawBufferPointer(bytes), to: STDOUT_FILENO, target: "standard output")
                return nil
            } catch {
                return error
            }
        }
        if let error { firstFailure.withLock { if $0 == nil { $0 = error } } }
    }

    /// The first write that failed, if any: a report that did not reach its reader is an error.
    public static var failure: SystemError? { firstFailure.withLock { $0 } }
}
