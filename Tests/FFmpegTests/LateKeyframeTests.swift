@testable import FFmpeg
import FileIO
import Foundation
import Testing

/// A frame long after the last keyframe cost as much as decoding the whole file at
/// each step of the search back (MPEG-TS seeks by time and lands past the last keyframe). It must
/// never cost more than decoding forward once from that keyframe.
@Suite struct LateKeyframeTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/video/late-keyframe.ts")

    /// The frame's number, from its 8 blocks of 16 luma samples (bit b: block b white).
    static func frameNumber(_ frame: Frame) -> Int {
        let row = frame.pointer.pointee.data.0! + Int(frame.pointer.pointee.linesize.0) * 8
        return (0..<8).reduce(0) { number, bit in row[bit * 16 + 8] > 128 ? number | (1 << bit) : number }
    }

    @Test func anExactFrameLongAfterTheLastKeyframeDecodesOnlyFromThatKeyframe() throws {
        let video = try VideoSource(file: try InputFile(path: Self.fixture.path), threads: 1)
        // 10 frames a second; the keyframes are frames 0 and 73 (7.3 s); 19 s shows frame 190.
        let located = try video.frame(atSeconds: 19, mode: .exact)
        #expect(Self.frameNumber(located.frame) == 190)
        #expect(abs(located.seconds - 19) < 1e-9)
        // Frames 73 to 190, and the few B-frames after 190 that the reorder delay holds back.
        let sent = video.decoder.packetsSent
        #expect(sent >= 190 - 73 + 1 && sent <= 190 - 73 + 1 + 8, "\(sent) packets decoded")
    }

    @Test func theKeyframeLongBeforeTheTimeIsFoundWithoutDecodingTheWayThere() throws {
        let video = try VideoSource(file: try InputFile(path: Self.fixture.path), threads: 1)
        let located = try video.frame(atSeconds: 19, mode: .keyframe)
        #expect(Self.frameNumber(located.frame) == 73)
        #expect(video.decoder.packetsSent <= 2)
    }
}
