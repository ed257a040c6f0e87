import FFmpeg
import Previews
import Testing

@Suite struct PreviewScheduleTests {
    @Test func fourPiecesOfASecondAreSpreadOverAMinute() throws {
        let schedule = try PreviewSchedule(duration: 60, segments: 4, segmentLength: 1, fps: 10)
        // Each centred in its quarter: 7.5, 22.5, 37.5 and 52.5 s.
        #expect(schedule.segments.map(\.start) == [7, 22, 37, 52])
        #expect(schedule.frames.count == 40)
        #expect(schedule.frames.prefix(3).map(\.time) == [7, 7.1, 7.2])
        #expect(schedule.frames[10].time == 22)
        #expect(schedule.frames.allSatisfy { $0.milliseconds == 100 })
    }

    /// Each piece starts on the keyframe nearest its centred start that leaves it room in its share;
    /// a share with none keeps the centred start, and one stretch (--from/--to) is never moved.
    @Test func piecesStartOnTheNearestKeyframeInTheirShare() throws {
        let every2s = stride(from: 0.0, to: 60, by: 2).map { $0 }
        #expect(try PreviewSchedule(duration: 60, segments: 4, segmentLength: 1, fps: 10, keyframes: every2s).segments.map(\.start)
                == [6, 22, 36, 52])
        // 29.97 fps keyframes: up to the microsecond, never a hair before the keyframe.
        let ntsc = try PreviewSchedule(duration: 60, segments: 1, segmentLength: 1, fps: 10, keyframes: [0, 30.0300299])
        #expect(ntsc.segments.map(\.start) == [30.03003])
        // The second share (15 to 30 s, room to 29 s) has no keyframe: its piece stays centred.
        let sparse = try PreviewSchedule(duration: 60, segments: 4, segmentLength: 1, fps: 10, keyframes: [0, 9.5, 29.5, 40])
        #expect(sparse.segments.map(\.start) == [9.5, 22, 40, 52])
        #expect(try PreviewSchedule(duration: 60, segments: 4, segmentLength: 1, fps: 10, from: 7, to: 8, keyframes: every2s)
                    .segments.map(\.start) == [7])
    }

    /// Every frame's time is at or after the exact k/fps from its piece's start, and within a
    /// microsecond of it: the frame shown then is that time's, never the one before.
    @Test(arguments: [24, 29.97, 30, 60, 120, 0.5])
    func frameTimesNeverFallBeforeTheirExactTime(fps: Double) throws {
        let schedule = try PreviewSchedule(duration: 600, segments: 1, segmentLength: 1, fps: fps, from: 0, to: 10)
        for (index, frame) in schedule.frames.enumerated() {
            let exact = Double(index) / fps
            #expect(frame.time >= exact && frame.time - exact < 1.000001e-6, "frame \(index) at \(frame.time) for \(exact)")
        }
        #expect(try PreviewSchedule(duration: 60, segments: 1, segmentLength: 1, fps: 30, from: 0, to: 0.2).frames.map(\.time)
                == [0, 0.033334, 0.066667, 0.1, 0.133334, 0.166667])
    }

    @Test func durationsAddUpToTheLengthAtAnyRate() throws {
        let schedule = try PreviewSchedule(duration: 60, segments: 2, segmentLength: 1, fps: 30)
        #expect(schedule.frames.count == 60)
        #expect(Set(schedule.frames.map(\.milliseconds)) == [33, 34])
        #expect(schedule.frames.map(\.milliseconds).reduce(0, +) == 2000)
    }

    @Test func aVideoShorterThanThePiecesIsShownWhole() throws {
        let schedule = try PreviewSchedule(duration: 2.5, segments: 4, segmentLength: 1, fps: 10)
        #expect(schedule.segments.map { [$0.start, $0.length] } == [[0, 2.5]])
        #expect(schedule.frames.count == 25)
    }

    @Test func oneStretchFromTo() throws {
        let schedule = try PreviewSchedule(duration: 60, segments: 4, segmentLength: 1, fps: 5, from: 10, to: 12)
        #expect(schedule.frames.map(\.time) == [10, 10.2, 10.4, 10.6, 10.8, 11, 11.2, 11.4, 11.6, 11.8])
        // Past the end is the end.
        #expect(try PreviewSchedule(duration: 3, segments: 1, segmentLength: 1, fps: 1, from: 1, to: 100).frames.map(\.time) == [1, 2])
    }

    @Test func whatCannotBeScheduledSaysWhy() {
        #expect(throws: PreviewError.unknownDuration) { try PreviewSchedule(duration: nil, segments: 4, segmentLength: 1, fps: 10) }
        #expect(throws: PreviewError.unknownDuration) {
            try PreviewSchedule(duration: .infinity, segments: 1000, segmentLength: 3600, fps: 120, keyframes: [0, 1])
        }
        // A stretch to an end past any Int's count of frames.
        #expect(throws: PreviewError.schedule(.tooManyFrames(count: 1_000_000_000_000_000_000, most: 10_000, holder: "a preview"))) {
            try PreviewSchedule(duration: 1e300, segments: 4, segmentLength: 1, fps: 120, from: 0)
        }
        #expect(throws: PreviewError.schedule(.emptyRange(from: 70, to: 60))) {
            try PreviewSchedule(duration: 60, segments: 1, segmentLength: 1, fps: 10, from: 70)
        }
        #expect(throws: PreviewError.schedule(.tooManyFrames(count: 60_000, most: 10_000, holder: "a preview"))) { try PreviewSchedule(duration: 600, segments: 1, segmentLength: 1, fps: 100, from: 0) }
    }
}
