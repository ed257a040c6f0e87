import FFmpeg
import FileIO
import Imaging

/// How a moving preview is made.
public struct PreviewOptions: Sendable, Codable {
    /// Pieces spread over the video, each `segmentLength` seconds.
    public var segments = 4
    public var segmentLength = 1.0
    /// Frames a second.
    public var fps = 10.0
    /// One stretch instead of the pieces, from the first frame: seconds, or a share of the duration.
    public var from: TimeSpec?
    public var to: TimeSpec?
    /// The box the frames fit inside, aspect kept.
    public var maxWidth: Int? = 320
    public var maxHeight: Int?
    public var format = PreviewFormat.webp
    /// Lossy quality, 0 to 100.
    public var quality = 75
    /// Lower qualities are tried until the file holds at most this many bytes.
    public var maxBytes: Int?
    public var appliesOrientation = true
    public var deinterlaces = true
    public var videoStream: Int?
    public var limits = DecodeLimits()
    /// The most pixels a frame of a preview holds: 4K's. The encoders hold several frames at once
    /// (libwebp's animation encoder a canvas and candidates of each, libx264 its references), and
    /// 8000x8000 frames took 2 GB past the run's memory limit.
    public var largestFramePixels = 3840 * 2160
    /// What writing the file may do to what is at its path.
    public var output = OutputPolicy(overwrite: false, isNamedByUser: false)
    /// Threads of one preview (decoder, scaler); 0 for every core.
    public var threads = 0

    public init() {}
}
