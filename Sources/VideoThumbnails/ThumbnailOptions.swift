import FFmpeg
import ImageCodecs
import FileIO

public struct ThumbnailOptions: Sendable {
    public var time: TimeSpec = .fraction(0.1)
    public var mode: VideoSource.SeekMode = .exact
    /// Fit inside this width and/or height, aspect kept; nil for the full display size.
    public var maxWidth: Int?
    public var maxHeight: Int?
    /// Turn the picture upright by the display matrix (rotations and flips).
    public var appliesOrientation = true
    public var format: ImageFormat = .png
    public var encoding = EncodingSettings()
    public var output = OutputPolicy(overwrite: false)
    /// Decoder threads; 0 for every core.
    public var threads = 0

    public init() {}
}
