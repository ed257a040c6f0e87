import CTIFF
import Glibc
import Reporting

/// libtiff's process-wide error and warning handlers, which print to standard error unless
/// replaced: a message about no open file (or one a file's own handlers pass on) reaches them.
/// Errors go to LibraryMessages, as the cause the input being read can give; warnings (unknown
/// tags, and the like) are not failures and are dropped, as the files' own handlers drop them.
enum TIFFProcessHandlers {
    static let installed: Void = {
        _ = TIFFSetErrorHandler { module, format, arguments in
            guard let format, let arguments else { return }
            var message = [CChar](repeating: 0, count: 512)
            _ = vsnprintf(&message, message.count, format, arguments)
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            LibraryMessages.record("libtiff", module.map { "\(String(cString: $0)): \(text)" } ?? text)
        }
        _ = TIFFSetWarningHandler { _, _, _ in }
    }()
}
