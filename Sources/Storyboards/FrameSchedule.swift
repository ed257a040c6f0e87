import FFmpeg

/// The times a storyboard shows, and the stretch of the video each one stands for (its WebVTT cue).
public struct FrameSchedule: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// The time whose picture is taken, in seconds from the first frame.
        public let time: Double
        /// The stretch the picture previews: from `start` up to `end`.
        public let start: Double
        public let end: Double
    }

    public let entries: [Entry]

    /// The most frames one storyboard holds: far past any preview, and a bound on the work a
    /// mistyped `--every 0.001` asks for.
    public static let maxFrames = 100_000

    private static func tooMany(_ count: Int) -> ScheduleProblem {
        .tooManyFrames(count: count, most: maxFrames, holder: "a storyboard")
    }

    /// Times to the microsecond: a report says 1.32, not 1.3199999999999998.
    private static func microseconds(_ seconds: Double) -> Double {
        (seconds * 1e6).rounded() / 1e6
    }

    /// The times of `selection` in `from..<to`: `.count(n)` at the middles of n equal intervals,
    /// `.every(step)` at `from`, `from + step`, ... each standing for the step after it.
    public init(selection: FrameSelection, from: Double, to: Double) throws(ScheduleProblem) {
        guard to > from else { throw .emptyRange(from: from, to: to) }
        switch selection {
        case .count(let count):
            guard count <= Self.maxFrames else { throw Self.tooMany(count) }
            let step = (to - from) / Double(count)
            entries = (0..<count).map { index in
                let start = Self.microseconds(from + Double(index) * step)
                let end = index == count - 1 ? to : Self.microseconds(from + Double(index + 1) * step)
                return Entry(time: Self.microseconds(from + (Double(index) + 0.5) * step), start: start, end: end)
            }
        case .every(let step):
            // Counted as a double first: a duration a header made up (1e300 s) is too many frames,
            // not a trap converting it.
            let frames = ((to - from) / step).rounded(.up)
            guard frames <= Double(Self.maxFrames) else { throw Self.tooMany(frames < Double(Int.max) ? Int(frames) : Int.max) }
            let count = Int(frames)
            entries = (0..<count).map { index in
                let start = Self.microseconds(from + Double(index) * step)
                return Entry(time: start, start: start, end: min(to, Self.microseconds(from + Double(index + 1) * step)))
            }
        }
    }
}
