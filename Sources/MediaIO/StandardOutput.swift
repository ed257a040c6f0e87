import Glibc

/// Whole lines to standard output, one write(2) each, so that lines from several threads never mix.
public enum StandardOutput {
    public static func write(_ text: String) {
        writeWhole(text, to: STDOUT_FILENO)
    }
}

/// Writes all of `text` to `descriptor`, going on after interruptions; gives up silently when the
/// other end is gone (a closed pipe), as there is nowhere left to say so.
func writeWhole(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
