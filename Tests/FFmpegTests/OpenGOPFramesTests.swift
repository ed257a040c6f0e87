@testable import FFmpeg
import FileIO
import Foundation
import Testing

/// An open GOP's keyframe (HEVC's CRA) is decoded before the frames shown just before it (RASL),
/// which need the GOP before: a keyframe the index lists at or before a time may show after it.
/// Frames for such a time come from decoding on from the keyframe before, in a pass of many
/// times as in the search for one, on one thread or many.
@Suite struct OpenGOPFramesTests {
    /// 60 frames at 25 fps, each showing its number, x265 with open GOPs of 12 and 3 B-frames:
    /// the CRA shown at 0.48 s (frame 12) is decoded at 0.32 s, before frames 10 and 11.
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/video/counter-open-gop.mp4")

    @Test(arguments: [1, 2])
    func framesShownBeforeAnOpenGOPsKeyframeAreThemselves(threads: Int) throws {
        // Frame 2, then frames 10 and 11 (before the CRA at frame 12), the CRA itself, and frame 23
        // (just before the next CRA, at frame 24).
        let times = [0.08, 0.40, 0.44, 0.48, 0.92]
        let expected = [2, 10, 11, 12, 23]
        let video = try VideoSource(file: try InputFile(path: Self.fixture.path), threads: threads)
        var found: [Int] = []
        try video.frames(atSeconds: times, mode: .exact) { found.append(LateKeyframeTests.frameNumber($0.located.frame)) }
        #expect(found == expected)
        // Each alone, through the search for one time, agrees.
        for (time, number) in zip(times, expected) {
            let alone = try VideoSource(file: try InputFile(path: Self.fixture.path), threads: threads)
            #expect(LateKeyframeTests.frameNumber(try alone.frame(atSeconds: time, mode: .exact).frame) == number, "\(time) s")
        }
    }
}
