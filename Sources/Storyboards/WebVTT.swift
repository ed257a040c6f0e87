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

    /// A file name as a relative URL: bytes other than unreserved characters percent-encoded, so
    /// that a space, `#` or `?` in a name does not end the URL or start its fragment. The name's
    /// own bytes are encoded, so one that is not UTF-8 (`caf\xe9.mp4`) is `caf%E9.mp4`, the file's name.
    public static func urlPath(_ name: String) -> String {
        var encoded = ""
        for byte in PathBytes.bytes(name) {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }
}
