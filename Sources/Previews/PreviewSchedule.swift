import FFmpeg

/// The stretches of a video a moving preview shows, and the times of its frames: `segments` pieces
/// of `segmentLength` seconds spread over the video (each centred in its share of it), or one
/// stretch from `from` to `to`; a frame every 1/`fps` s in each.
public struct PreviewSchedule: Sendable, Equatable {
    /// A stretch shown: from `start` for `length` seconds.
    public struct Segment: Sendable, Equatable {
        public let start: Double
        public let length: Double
    }

    public let segments: [Segment]
    /// Every frame's time, in order, with how long it shows in milliseconds (their sum is the
    /// preview's length, rounded once, not once a frame).
    public let frames: [(time: Double, milliseconds: Int)]

    /// The most frames a preview holds: minutes of hover loop at 30 fps, and a bound on what a mistyped
    /// `--fps` asks for.
    public static let maxFrames = 10_000

    /// The frames a second a preview is made at: a frame every 10 s at least (libwebp's durations
    /// are 24-bit milliseconds, and 1e-44 fps overflowed an Int), 120 at most.
    public static let fpsRange = 0.1...120.0

    public static func == (a: PreviewSchedule, b: PreviewSchedule) -> Bool {
        a.segments == b.segments && a.frames.elementsEqual(b.frames) { $0.time == $1.time && $0.milliseconds == $1.milliseconds }
    }

    /// `segments` pieces spread over `duration`, or the stretch `from..<to` (`to` defaults to the end).
    /// A video shorter than the pieces together is shown whole. A piece starts on the keyframe
    /// (of `keyframes`, the index's, in seconds) nearest the middle of its share where one leaves
    /// it room in that share: it is then decoded from its first frame on, with nothing before it.
    public init(duration: Double?, segments count: Int, segmentLength: Double, fps: Double,
                from: Double? = nil, to: Double? = nil, keyframes: [Double] = []) throws(PreviewError) {
        precondition(count >= 1 && segmentLength > 0 && Self.fpsRange.contains(fps))
        var segments: [Segment]
        if from != nil || to != nil {
            let start = from ?? 0
            // `to` past the end is the end.
            guard let end = to.map({ asked in duration.map { min(asked, $0) } ?? asked }) ?? duration else { throw .unknownDuration }
            guard end > start else { throw .schedule(.emptyRange(from: start, to: end)) }
            segments = [Segment(start: start, length: end - start)]
        } else {
            // An infinite duration (found by fuzzing) spreads nothing: the shares' bounds were NaN.
            guard let duration, duration > 0, duration.isFinite else { throw .unknownDuration }
            if Double(count) * segmentLength >= duration {
                segments = [Segment(start: 0, length: duration)]
            } else {
                let share = duration / Double(count)
                segments = (0..<count).map { index in
                    let centre = share * (Double(index) + 0.5)
                    let start = min(max(0, centre - segmentLength / 2), duration - segmentLength)
                    let room = (share * Double(index))...(min(share * Double(index + 1), duration) - segmentLength)
                    if let keyframe = Self.nearest(to: start, among: keyframes, within: room) {
                        // Up to the microsecond: the keyframe is the frame shown at its own time.
                        return Segment(start: (keyframe * 1e6).rounded(.up) / 1e6, length: segmentLength)
                    }
                    return Segment(start: Self.microseconds(start), length: segmentLength)
                }
            }
        }
        // Counted as doubles first: a stretch to an end of 1e300 s holds more frames than an Int.
        let asked = segments.map { max(1, ($0.length * fps).rounded(.down)) }
        let wanted = asked.reduce(0, +)
        guard wanted <= Double(Self.maxFrames) else {
            throw .schedule(.tooManyFrames(count: wanted < 1e18 ? Int(wanted) : Int(1e18), most: Self.maxFrames, holder: "a preview"))
        }
        let perSegment = asked.map { Int($0) }
        let total = Int(wanted)
        var frames: [(time: Double, milliseconds: Int)] = []
        frames.reserveCapacity(total)
        for (segment, count) in zip(segments, perSegment) {
            for index in 0..<count { frames.append((Self.microsecondsOnOrAfter(segment.start + Double(index) / fps), 0)) }
        }
        // Frame k ends at round((k + 1) * 1000 / fps) ms: durations of 33 and 34 ms at 30 fps, whose
        // sum is the length.
        frames = frames.enumerated().map { index, frame in
            let start = (Double(index) * 1000 / fps).rounded()
            let end = (Double(index + 1) * 1000 / fps).rounded()
            return (frame.time, max(1, Int(end - start)))
        }
        self.segments = segments
        self.frames = frames
    }

    /// The time of `times` (ascending) nearest `target` within `range`; nil for none there.
    private static func nearest(to target: Double, among times: [Double], within range: ClosedRange<Double>) -> Double? {
        // The first at or after the target, by bisection: an index lists a keyframe a second or two.
        var low = 0, high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] < target { low = middle + 1 } else { high = middle }
        }
        let candidates = [low - 1, low].filter { times.indices.contains($0) }.map { times[$0] }.filter(range.contains)
        return candidates.min { abs($0 - target) < abs($1 - target) }
    }

    /// Times to the microsecond: 0.3, not 0.30000000000000004.
    private static func microseconds(_ seconds: Double) -> Double {
        (seconds * 1e6).rounded() / 1e6
    }

    /// A frame's time to the microsecond at or after it: 1/30 s is 0.033334, whose frame is the one
    /// shown from 1/30 s (0.033333 was the frame before it, and at 30 fps every third frame from
    /// the start was lost); a hair of rounding noise (0.30000000000000004) is no microsecond.
    private static func microsecondsOnOrAfter(_ seconds: Double) -> Double {
        (seconds * 1e6 - 1e-6).rounded(.up) / 1e6
    }
}
