import FFmpeg

/// Which frame a thumbnail shows: the one at a time, or a poster frame chosen as worth showing.
public enum ThumbnailTime: Sendable, Equatable, CustomStringConvertible {
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

    /// As the user would write it: `auto`, `10%`, `35.2`.
    public var description: String {
        func number(_ value: Double) -> String { value == value.rounded() && value.magnitude < 1e15 ? String(Int64(value)) : "\(value)" }
        switch self {
        case .posterFrame: return "auto"
        case .at(.fraction(let fraction)): return number(fraction * 100) + "%"
        case .at(.seconds(let seconds)): return number(seconds)
        }
    }
}
