import Glibc

/// What the C libraries say as they work: never written to standard error, where a library's line
/// beside the tool's own would break the one-line-per-input rule (and split from the file it is
/// about). Each library's own logging is routed here instead (FFmpeg's `av_log` callback, libtiff's
/// process-wide handlers, the HEIF decoders' reasons for failing) and kept per thread, the first
/// message since the thread last asked, so that the input the thread works on can give it as the
/// cause in its one error line.
public enum LibraryMessages {
    private final class Slot {
        var first: String?
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { slot in if let slot { Unmanaged<Slot>.fromOpaque(slot).release() } }
        return key
    }()

    private static var slot: Slot {
        if let existing = pthread_getspecific(key) { return Unmanaged<Slot>.fromOpaque(existing).takeUnretainedValue() }
        let slot = Slot()
        pthread_setspecific(key, Unmanaged.passRetained(slot).toOpaque())
        return slot
    }

    /// Keeps `message` (trailing white space dropped, `library: ` before it) unless one is kept
    /// already; with `replacing`, in place of it (a library whose last word is its verdict, as
    /// FFmpeg's demuxer after a prober's side remarks: "EBML header parsing failed").
    public static func record(_ library: String, _ message: String, replacing: Bool = false) {
        var text = message
        while text.last?.isWhitespace == true { text.removeLast() }
        guard !text.isEmpty, slot.first == nil || replacing else { return }
        slot.first = "\(library): \(text)"
    }

    /// The message kept on this thread, forgotten as it is taken.
    public static func take() -> String? {
        let slot = self.slot
        defer { slot.first = nil }
        return slot.first
    }

    /// Forgets what this thread kept, before work whose messages are to be told apart.
    public static func clear() {
        slot.first = nil
    }
}
