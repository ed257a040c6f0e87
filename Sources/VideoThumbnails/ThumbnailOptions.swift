import Imaging
import FFmpeg
import ImageCodecs
import FileIO

public struct ThumbnailOptions: Sendable, Codable {
    public var time: ThumbnailTime = .at(.fraction(0.1))
    /// A share of a video that states no duration (a raw stream) is its first frame, with a
    /// warning, as ffmpegthumbnailer shows it: for the default time, which nobody asked for. A
    /// share asked for is an error where it has no place.
    public var firstFrameWithoutDuration = true
    public var mode: VideoSource.SeekMode = .exact
    /// Fit inside this width and/or height, aspect kept; nil for the full display size.
    public var maxWidth: Int?
    public var maxHeight: Int?
    /// Turn the picture upright by the display matrix (rotations and flips).
    public var appliesOrientation = true
    public var format: ImageFormat = .png
    public var encoding = EncodingSettings()
    public var output = OutputPolicy(overwrite: false)
    /// Threads of one thumbnail (decoder, scaler, tone mapping; the encoder's are in `encoding`); 0 for every core.
    public var threads = 0
    /// The video stream, counted from 0 among those that are not cover art; nil for the file's main one.
    public var videoStream: Int?
    /// An interlaced frame is deinterlaced (`--no-deinterlace` keeps its fields woven).
    public var deinterlaces = true
    /// What becomes of HDR (PQ, HLG) frames.
    public var hdr: HDRHandling = .toneMap
    /// 8-bit, or 16-bit PNG samples (10 and 12-bit sources keep their precision).
    public var sixteenBit = false
    /// Whether the file's cover art is written instead of a frame.
    public var cover: CoverChoice = .never
    /// The largest frame (or cover picture) decoded, by pixels and by the memory it would take.
    public var limits = DecodeLimits()
    /// The sizes written, one output each; empty: one, by `maxWidth`/`maxHeight` (which may enlarge),
    /// or the display size.
    public var sizes: [ThumbnailSize] = []
    /// The frame of an animated picture (`--at` given); nil: its first.
    public var animationTime: AnimationTime?
    /// A picture's colours converted from its ICC profile to sRGB (lcms2), instead of the profile carried.
    public var convertsToSRGB = false
    /// Fill each size's box exactly, cut where the gravity says; nil: fit inside it.
    public var fill: CropGravity?
    /// The options given that only a video has a use for (`--at`, `--keyframe`, ...): a picture says
    /// so in one warning.
    public var videoOnlyOptions: [String] = []

    public init() {}
}

/// When a thumbnail is the file's cover art (its attached picture) rather than a frame.
public enum CoverChoice: String, Sendable, Codable {
    /// Always a frame.
    case never
    /// Always the cover art: a file without one is an error.
    case only
    /// The cover art when there is one, a frame otherwise (ffmpegthumbnailer's -m).
    case prefer
}

/// What a thumbnail does with an HDR frame.
public enum HDRHandling: String, Sendable, Codable, CaseIterable {
    /// Tone mapped to SDR sRGB, as players show it on an SDR screen.
    case toneMap = "tonemap"
    /// Kept: 16-bit PNG with the frame's BT.2020 primaries and PQ or HLG transfer in a cICP chunk,
    /// which HDR-capable viewers show as HDR.
    case keep
}
