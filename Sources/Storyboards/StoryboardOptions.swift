import FFmpeg
import FileIO
import ImageCodecs
import Imaging

/// Which frames a storyboard shows.
public enum FrameSelection: Sendable, Codable, Equatable {
    /// This many, evenly spaced: each at the middle of one of as many equal intervals.
    case count(Int)
    /// One every this many seconds, from the start of the range.
    case every(Double)
}

/// How frames are laid out in files.
public enum Tiling: Sendable, Codable, Equatable {
    /// Sprite sheets of `columns` x `rows` cells, filled row by row; more sheets when more frames.
    case sheets(columns: Int, rows: Int)
    /// One file a frame.
    case none
}

public struct StoryboardOptions: Sendable, Codable {
    public var selection: FrameSelection = .count(100)
    /// The range the frames are chosen in; nil for the start and the end of the video.
    public var from: TimeSpec?
    public var to: TimeSpec?
    /// Keyframe mode by default: a storyboard is a preview, and a keyframe costs one decode. Where
    /// the keyframes are sparser than the cells, so that cells would repeat one, the exact frames
    /// are decoded instead, unless `keyframesMayRepeat`.
    public var mode: VideoSource.SeekMode = .keyframe
    /// Keyframes only, even where they repeat (`--keyframe`: the fastest, approximate).
    public var keyframesMayRepeat = false
    public var tiling: Tiling = .sheets(columns: 10, rows: 10)
    /// Each cell fits inside this width and/or height, display aspect kept; width 160 when neither is given.
    public var maxWidth: Int?
    public var maxHeight: Int?
    public var appliesOrientation = true
    public var deinterlaces = true
    public var videoStream: Int?
    public var format: ImageFormat = .jpeg
    public var encoding = EncodingSettings()
    public var output = OutputPolicy(overwrite: false)
    /// The largest frame decoded, by pixels and by the memory it would take.
    public var limits = DecodeLimits()
    /// Put before each picture's name in the WebVTT file; nil for names relative to it.
    public var urlBase: String?
    /// Threads of one storyboard (decoder, scaler); 0 for every core.
    public var threads = 0

    /// The width a cell fits in when no size is given: what players' scrub previews show.
    public static let defaultCellWidth = 160

    public init() {}
}
