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

    /// The report's members for `--json`.
    public var fields: [(name: String, value: JSONValue)] {
        [
            ("vtt", .string(vtt)),
            ("files", .array(files.map { .string($0) })),
            ("frames", .array(frames.map { frame in
                .object([
                    JSONMember("time", .double(frame.time)), JSONMember("shown", .double(frame.shown)),
                    JSONMember("file", .string(frame.file)), JSONMember("x", .int(frame.x)), JSONMember("y", .int(frame.y)),
                    JSONMember("width", .int(frame.width)), JSONMember("height", .int(frame.height)),
                ])
            })),
        ]
    }
}
