import FFmpeg
import FileIO
import Imaging

/// How the web video of an upload is made.
public struct TranscodeOptions: Sendable, Codable {
    /// The box the picture (upright) fits inside: a larger video is scaled down, never up.
    public var maxWidth: Int?
    public var maxHeight: Int? = 1080
    /// The most the picture's shorter side may be, upright (1080: 1080p, portrait or landscape),
    /// besides the box.
    public var maxShorterSide: Int?
    /// libx264's preset: its speed against the bytes a quality takes.
    public var preset = "veryfast"
    /// libx264's constant rate factor: lower is better and larger (18 looks lossless; 23 is its default).
    public var crf = 23.0
    public var appliesOrientation = true
    public var deinterlaces = true
    public var videoStream: Int?
    /// Whether the sound is kept (as AAC): a video with none stays silent.
    public var keepsSound = true
    /// The longest video made, in seconds: its frames are real (decoded), but a few bytes can
    /// hold hours of still frames, each of which costs the encoder's time.
    public var maxSeconds = 4.0 * 3600
    public var limits = DecodeLimits()
    /// What writing the file may do to what is at its path.
    public var output = OutputPolicy(overwrite: false, isNamedByUser: false)
    /// An HLS ladder (`Transcoder.makeLadder`) instead of one MP4.
    public var makesLadder = false
    /// Threads of one video (decoder, scaler, encoder); 0 for every core.
    public var threads = 0

    /// The most frames a second a web video shows: closer frames are passed over.
    public static let mostFramesPerSecond = 120.0

    /// x264's presets, fastest first.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]

    public init() {}
}
