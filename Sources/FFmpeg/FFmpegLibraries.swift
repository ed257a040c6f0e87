import CFFmpeg
import CFFmpegLoader
import Glibc
import FileIO
import Reporting

/// The FFmpeg libraries this process is linked with.
public enum FFmpegLibraries {
    /// Versions read from the loaded libraries, which may differ from the headers built against.
    public static var versions: [LibraryVersion] {
        [
            LibraryVersion(name: "libavformat", version: dotted(avformat_version())),
            LibraryVersion(name: "libavcodec", version: dotted(avcodec_version())),
            LibraryVersion(name: "libavutil", version: dotted(avutil_version())),
            LibraryVersion(name: "libswscale", version: dotted(swscale_version())),
        ]
    }

    /// Loads the libraries now rather than at first use: a sandboxed worker does, while it may
    /// still open files.
    public static func load() throws {
        var message = [CChar](repeating: 0, count: 512)
        guard cffmpeg_loader_available(&message, UInt(message.count)) == 1 else {
            throw LibraryLoadError(description: "cannot load FFmpeg: " + String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        silenceLogs()
    }

    /// FFmpeg's own log lines would break the one-line-per-error rule (errors come back as codes):
    /// its errors go to LibraryMessages, where the input being read can take them as its cause, and
    /// nothing reaches standard error. Less than errors is not even formatted.
    static func silenceLogs() {
        av_log_set_level(AV_LOG_ERROR)
        av_log_set_callback { _, level, format, arguments in
            guard level <= AV_LOG_ERROR, let format, let arguments else { return }
            var message = [CChar](repeating: 0, count: 512)
            _ = vsnprintf(&message, message.count, format, arguments)
            LibraryMessages.record("FFmpeg", String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    private static func dotted(_ packed: UInt32) -> String {
        "\(cffmpeg_version_major(packed)).\(cffmpeg_version_minor(packed)).\(cffmpeg_version_micro(packed))"
    }
}

/// FFmpeg's libraries could not be loaded.
public struct LibraryLoadError: Error, CustomStringConvertible {
    public let description: String
}
