/// What a stream (standard input, a pipe, a FIFO, `<(command)`) may cost before it is refused. A
/// stream is copied to a temporary file for decoders to seek in, so a stranger who never stops
/// sending would fill the disk, and one who stops sending but keeps the stream open would hold the
/// run forever. A regular file is never subject to these: its size is known before it is read.
public struct StreamLimits: Sendable, Equatable {
    /// The most a stream's copy may hold, in bytes: past it the input fails and the copy is gone.
    public var maxSize: Int
    /// The longest a stream may send nothing, in seconds: then it has stalled and the input fails.
    /// A slow stream that keeps sending is never cut.
    public var stallSeconds: Double

    /// 16 GiB: a phone's longest usual video and more (4K HEVC at 60 fps is about 0.4 GB a minute).
    public static let defaultMaxSize = 16 << 30
    /// As long as a worker may take on one input (`--timeout`'s default).
    public static let defaultStallSeconds = 120.0

    public init(maxSize: Int = defaultMaxSize, stallSeconds: Double = defaultStallSeconds) {
        self.maxSize = maxSize
        self.stallSeconds = stallSeconds
    }

    /// `bytes` as the option takes it: `16G`, `512M`, `64K`, or a number of bytes.
    public static func sizeText(_ bytes: Int) -> String {
        for (unit, shift) in [("T", 40), ("G", 30), ("M", 20), ("K", 10)] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift)\(unit)"
        }
        return "\(bytes) bytes"
    }

    /// Seconds as few digits as they need: `3`, `0.5`.
    static func secondsText(_ seconds: Double) -> String {
        seconds == seconds.rounded() && seconds < 1e15 ? String(Int(seconds)) : String(seconds)
    }
}
