import FFmpeg
import Imaging
import MediaIO

/// The image file formats a thumbnail can be written in.
public enum ImageFormat: String, CaseIterable, Sendable {
    case png
    case jpeg

    public var fileExtension: String { self == .png ? "png" : "jpg" }

    /// The format an output path's extension asks for, if any.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        default: return nil
        }
    }
}

public struct ThumbnailOptions: Sendable {
    public var time: TimeSpec = .fraction(0.1)
    public var mode: VideoSource.SeekMode = .exact
    /// Fit inside this width and/or height, aspect kept; nil for the full display size.
    public var maxWidth: Int?
    public var maxHeight: Int?
    /// Turn the picture upright by the display matrix (rotations and flips).
    public var appliesOrientation = true
    public var format: ImageFormat = .png
    /// JPEG quality, 1 to 100.
    public var jpegQuality = 90
    /// zlib level 0 to 9.
    public var pngCompressionLevel = PNGFile.defaultCompressionLevel
    public var output = OutputPolicy(overwrite: false)
    /// Decoder threads; 0 for every core.
    public var threads = 0

    public init() {}
}
