import FFmpeg

/// Which frame a thumbnail shows: the one at a time, or a poster frame chosen as worth showing.
public enum ThumbnailTime: Sendable, Codable, Equatable {
    case at(TimeSpec)
    /// A keyframe early in the video that is not black, white or flat (`--at auto`, see `PosterFrame`).
    case posterFrame

    /// `auto`, or a time as `TimeSpec` reads one; nil for anything else.
    public init?(parsing text: String) {
        if text == "auto" {
            self = .posterFrame
        } else if let time = TimeSpec(parsing: text) {
            self = .at(time)
        } else {
            return nil
        }
    }
}
