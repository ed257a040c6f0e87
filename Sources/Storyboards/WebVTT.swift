import FileIO

/// A WebVTT file of thumbnail cues: each names a picture, or a rect of a sprite sheet with a media
/// fragment (`sheet.jpg#xywh=160,0,160,90`), for the stretch of time it previews.
public struct WebVTT: Sendable {
    public struct Cue: Sendable, Equatable {
        public let start: Double
        public let end: Double
        public let url: String
        /// The cell in the picture at `url`; nil for the whole picture.
        public let rect: (x: Int, y: Int, width: Int, height: Int)?

        public init(start: Double, end: Double, url: String, rect: (x: Int, y: Int, width: Int, height: Int)?) {
            self.start = start
            self.end = end
            self.url = url
            self.rect = rect
        }

        public static func == (lhs: Cue, rhs: Cue) -> Bool {
            lhs.start == rhs.start && lhs.end == rhs.end && lhs.url == rhs.url
                && lhs.rect.map { [$0.x, $0.y, $0.width, $0.height] } == rhs.rect.map { [$0.x, $0.y, $0.width, $0.height] }
        }
    }

    public var cues: [Cue] = []

    public init() {}

    public var text: String {
        var text = "WEBVTT\n"
        for cue in cues {
            // Whole milliseconds; a cue always lasts at least one.
            let start = Self.milliseconds(cue.start)
            let end = max(start + 1, Self.milliseconds(cue.end))
            text += "\n\(Self.timestamp(start)) --> \(Self.timestamp(end))\n\(cue.url)"
            if let rect = cue.rect { text += "#xywh=\(rect.x),\(rect.y),\(rect.width),\(rect.height)" }
            text += "\n"
        }
        return text
    }

    /// At most about 317 years: a duration a header made up is written as that, not a trap.
    static func milliseconds(_ seconds: Double) -> Int {
        Int((min(max(0, seconds), 1e10) * 1000).rounded())
    }

    /// `hh:mm:ss.ttt`: hours always, as players that read thumbnail tracks expect.
    static func timestamp(_ milliseconds: Int) -> String {
        func padded(_ value: Int, _ digits: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        let hours = milliseconds / 3_600_000
        let minutes = milliseconds / 60_000 % 60
        let seconds = milliseconds / 1000 % 60
        return "\(padded(hours, 2)):\(padded(minutes, 2)):\(padded(seconds, 2)).\(padded(milliseconds % 1000, 3))"
    }

    /// A file name as a relative URL (`PathBytes.urlPath`).
    public static func urlPath(_ name: String) -> String { PathBytes.urlPath(name) }
}
