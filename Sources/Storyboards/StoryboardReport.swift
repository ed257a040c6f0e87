import JSON

/// What making one storyboard did.
public struct StoryboardReport: Sendable {
    /// One picture of the storyboard.
    public struct Frame: Sendable {
        /// The time asked for, and the time of the frame shown, in seconds from the first frame.
        public let time: Double
        public let shown: Double
        /// The file it is in, and its rect there.
        public let file: String
        public let x: Int
        public let y: Int
        public let width: Int
        public let height: Int
    }

    public let vtt: String
    public let files: [String]
    public let frames: [Frame]
    /// Things done other than asked, each one line.
    public let warnings: [String]
    /// Whether the frames another job asked for (`FramesAlongside`) were found in the same pass.
    public var tookAlongside = false
}

/// The report's line for `--json` (`JSONValueEncoder`): the WebVTT file, the pictures, and each
/// frame's time and place; paths written as paths.
extension StoryboardReport: Encodable {
    private enum CodingKeys: String, CodingKey { case vtt, files, frames }

    public func encode(to encoder: any Encoder) throws {
        var line = encoder.container(keyedBy: CodingKeys.self)
        try line.encode(JSONPath(vtt), forKey: .vtt)
        try line.encode(files.map(JSONPath.init), forKey: .files)
        try line.encode(frames, forKey: .frames)
    }
}

extension StoryboardReport.Frame: Encodable {
    private enum CodingKeys: String, CodingKey { case time, shown, file, x, y, width, height }

    public func encode(to encoder: any Encoder) throws {
        var line = encoder.container(keyedBy: CodingKeys.self)
        try line.encode(time, forKey: .time)
        try line.encode(shown, forKey: .shown)
        try line.encode(JSONPath(file), forKey: .file)
        try line.encode(x, forKey: .x)
        try line.encode(y, forKey: .y)
        try line.encode(width, forKey: .width)
        try line.encode(height, forKey: .height)
    }
}
