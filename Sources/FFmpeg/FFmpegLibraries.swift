import CFFmpeg
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

    /// FFmpeg's own log lines would break the one-line-per-error rule: errors come back as codes.
    static func silenceLogs() {
        av_log_set_level(AV_LOG_QUIET)
    }

    private static func dotted(_ packed: UInt32) -> String {
        "\(cffmpeg_version_major(packed)).\(cffmpeg_version_minor(packed)).\(cffmpeg_version_micro(packed))"
    }
}
