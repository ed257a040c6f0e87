import Synchronization
import FFmpeg
import Imaging
import WorkerPool

/// Chooses a frame worth showing as a video's poster (`--at auto`): among the keyframes of a window
/// early in the video (or its frames at the window's times, where keyframes are sparser than
/// those), not one that is almost black, almost white or almost flat (a fade, a flash, a title
/// card's background), nor one far darker than the brightest (the middle of a fade), and among the
/// rest the one whose colours are closest to their average, the method of ffmpeg's `thumbnail`
/// filter and ffmpegthumbnailer's smart mode. The same input always gives the same frame.
public enum PosterFrame {
    /// The share of the duration the window spans: past an opening fade, before the story moves on.
    public static let window = 0.05...0.30
    /// Times sampled in the window; each keyframe found is decoded once, however many share it.
    static let samples = 12

    /// What is measured of a frame, on a small copy of it.
    struct Measure {
        let seconds: Double
        /// 16 levels of each of R, G and B, as shares of the pixels.
        let histogram: [Double]
        let meanLuma: Double
        /// The share of pixels in the most common of 16 luma levels.
        let largestLumaShare: Double
        let lumaDeviation: Double

        var isAlmostBlack: Bool { meanLuma < 24 }
        var isAlmostWhite: Bool { meanLuma > 232 }
        var isAlmostFlat: Bool { largestLumaShare > 0.9 || lumaDeviation < 6 }
        var isRejected: Bool { isAlmostBlack || isAlmostWhite || isAlmostFlat }
    }

    /// A poster: its time, in seconds from the first frame, and how to find its frame there.
    public struct Choice: Sendable, Equatable {
        public let seconds: Double
        public let mode: VideoSource.SeekMode
    }

    /// Where keyframes are sparser than the samples, the frames at the samples' own times are
    /// decoded too, within this many seconds of the window's start: a clip of one keyframe that
    /// fades in from black has nothing but its black first frame among its keyframes.
    static let exactSpan = 20.0

    /// The chosen frame: a keyframe where the window has several, else the exact frame at a sample.
    public static func choose(in video: VideoSource, threads: Int = 1) throws -> Choice {
        guard let duration = video.durationSeconds else { throw VideoError.unknownDuration }
        let start = window.lowerBound * duration
        let step = (window.upperBound - window.lowerBound) * duration / Double(samples)
        let times = (0..<samples).map { start + (Double($0) + 0.5) * step }
        let keyframes = try keyframeMeasures(of: video, at: times, threads: threads)
        if keyframes.count >= samples / 3, let best = best(of: keyframes) {
            return Choice(seconds: best.seconds, mode: .keyframe)
        }
        let near = times.filter { $0 - times[0] <= exactSpan }
        let exact = try measures(of: video, at: near.count >= 3 ? near : (0..<3).map { start + Double($0) * exactSpan / 3 }, mode: .exact)
        if let best = best(of: exact) { return Choice(seconds: best.seconds, mode: .exact) }
        // Nothing worth showing in the window: the frame with the most detail.
        let found = keyframes.map { ($0, VideoSource.SeekMode.keyframe) } + exact.map { ($0, VideoSource.SeekMode.exact) }
        let detailed = found.max { $0.0.lumaDeviation < $1.0.lumaDeviation }
        return detailed.map { Choice(seconds: $0.0.seconds, mode: $0.1) } ?? Choice(seconds: start, mode: .keyframe)
    }

    /// What is measured of each frame found at `times`, each frame once.
    /// The keyframes' measures, the times split in two halves measured on two threads where the
    /// setting gives two (the second half by a second reader of the file, `VideoSource.sibling`):
    /// a minute-long phone clip's poster was twelve keyframe decodes one after another. The same
    /// frames are measured either way: a keyframe both halves reach (the later half's first time
    /// showing the earlier half's last keyframe) is measured once where one pass would have.
    private static func keyframeMeasures(of video: VideoSource, at times: [Double], threads: Int) throws -> [Measure] {
        let half = times.count / 2
        guard WorkerThreads.count(forSetting: threads) > 1, half > 1 else { return try measures(of: video, at: times, mode: .keyframe) }
        // The first time on this reader first: its frame's size is then known, where a header may
        // say less (an MJPEG's 64x64 over 8K pictures), and a second reader is opened only where
        // two such frames fit (`VideoSource.sibling`); two opened on the header's word each held
        // one, and the second waited for the first's memory until the stall refused the file.
        let first = try measures(of: video, at: [times[0]], mode: .keyframe)
        guard let sibling = try? video.sibling(threads: 1) else {
            return first + (try measures(of: video, at: Array(times[1...]), mode: .keyframe, after: times[0]))
        }
        // Each reader to one thread, which alone uses it until both have joined.
        let readers = HandedOver([video, sibling])
        let halves = [Array(times[1..<half]), Array(times[half...])]
        let results = Mutex<[Result<[Measure], any Error>]>([.success([]), .success([])])
        WorkerThreads.run(count: 2) { index in
            let result = Result { try measures(of: readers.value[index], at: halves[index], mode: .keyframe, after: index == 0 ? times[0] : nil) }
            results.withLock { $0[index] = result }
        }
        let (earlier, later) = results.withLock { ($0[0], $0[1]) }
        var laterMeasures = try later.get()
        // The later half's first time shows the keyframe the earlier half ended on: one pass
        // would have passed over it as a repeat.
        if !laterMeasures.isEmpty && video.repeatsLastKeyframe(atSeconds: halves[1][0]) { laterMeasures.removeFirst() }
        return try first + earlier.get() + laterMeasures
    }

    /// The measures of the frames at `times` on `video`; `after`: the time the same reader was
    /// last asked for, whose keyframe the first of `times` may show again (measured once, as
    /// one pass over all the times would).
    private static func measures(of video: VideoSource, at times: [Double], mode: VideoSource.SeekMode, after earlier: Double?) throws -> [Measure] {
        // Asked before the search, which moves what the reader found last.
        let repeats = earlier != nil && times.first.map { video.repeatsLastKeyframe(atSeconds: $0) } == true
        var made = try measures(of: video, at: times, mode: mode)
        if repeats && !made.isEmpty { made.removeFirst() }
        return made
    }

    private static func measures(of video: VideoSource, at times: [Double], mode: VideoSource.SeekMode) throws -> [Measure] {
        var measures: [Measure] = []
        try video.frames(atSeconds: times, mode: mode) { found in
            guard !found.repeatsPrevious else { return }
            let small = try video.pixels(of: found.located.frame, width: 64, height: 36, threads: 1)
            measures.append(measure(small, seconds: found.located.seconds))
        }
        return measures
    }

    /// Among the frames not rejected, the one whose colours are closest to their average; nil
    /// when every one is rejected.
    private static func best(of measures: [Measure]) -> Measure? {
        let bright = measures.filter { !$0.isRejected }
        // A frame far darker than the brightest is one of a fade (in or out), not the scene.
        let brightest = bright.map(\.meanLuma).max() ?? 0
        let kept = bright.filter { $0.meanLuma >= 0.75 * brightest }
        guard !kept.isEmpty else { return nil }
        var average = [Double](repeating: 0, count: 48)
        for measure in kept {
            for (index, share) in measure.histogram.enumerated() { average[index] += share / Double(kept.count) }
        }
        func distance(_ measure: Measure) -> Double {
            zip(measure.histogram, average).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        }
        // The earliest of equals, so that the choice never depends on more than the frames.
        var best = kept[0]
        for candidate in kept.dropFirst() where distance(candidate) < distance(best) { best = candidate }
        return best
    }

    static func measure(_ pixels: PixelBuffer, seconds: Double) -> Measure {
        var histogram = [Double](repeating: 0, count: 48)
        var lumaLevels = [Int](repeating: 0, count: 16)
        var sum = 0.0
        var sumOfSquares = 0.0
        let count = pixels.width * pixels.height
        let step = pixels.bytesPerPixel
        pixels.bytes.withUnsafeBufferPointer { bytes in
            for pixel in 0..<count {
                let red = Int(bytes[pixel * step]), green = Int(bytes[pixel * step + 1]), blue = Int(bytes[pixel * step + 2])
                histogram[red >> 4] += 1
                histogram[16 + (green >> 4)] += 1
                histogram[32 + (blue >> 4)] += 1
                // BT.709 luma, in whole levels.
                let luma = (54 * red + 183 * green + 19 * blue + 128) >> 8
                lumaLevels[luma >> 4] += 1
                sum += Double(luma)
                sumOfSquares += Double(luma * luma)
            }
        }
        let mean = sum / Double(max(1, count))
        let variance = max(0, sumOfSquares / Double(max(1, count)) - mean * mean)
        return Measure(seconds: seconds, histogram: histogram.map { $0 / Double(max(1, count)) }, meanLuma: mean,
                       largestLumaShare: Double(lumaLevels.max() ?? 0) / Double(max(1, count)),
                       lumaDeviation: variance.squareRoot())
    }
}
