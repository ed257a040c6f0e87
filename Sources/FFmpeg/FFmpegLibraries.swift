import CFFmpeg
import CFFmpegLoader
import Glibc
import FileIO
import Reporting
import Synchronization
import Failures

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
            LibraryMessages.record("FFmpeg", String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                                   replacing: true)
        }
    }

    /// Caps each single allocation FFmpeg makes (`av_max_alloc`, INT_MAX by default) at `bytes`:
    /// a 23 KB MP4 whose track claims 40 million samples had FFmpeg build a 1 GiB index whatever
    /// --max-memory said. Process-wide, so it only ever rises: two configurations of the library
    /// at once keep the larger, and no job fails for another's smaller one.
    public static func capAllocations(at bytes: Int) {
        let bytes = max(64 << 20, bytes)
        let raised = allocationCap.withLock { cap -> Bool in
            guard bytes > cap || cap == 0 else { return false }
            cap = bytes
            return true
        }
        if raised { av_max_alloc(bytes) }
    }

    private static let allocationCap = Mutex<Int>(0)

    private static func dotted(_ packed: UInt32) -> String {
        "\(cffmpeg_version_major(packed)).\(cffmpeg_version_minor(packed)).\(cffmpeg_version_micro(packed))"
    }
}

/// FFmpeg's libraries could not be loaded.
public struct LibraryLoadError: Error, CustomStringConvertible {
    public let description: String
}

extension LibraryLoadError: ClassifiedError {
    public var failureKind: FailureKind { .deployment }
}
