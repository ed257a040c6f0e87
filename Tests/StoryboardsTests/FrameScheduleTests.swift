import FFmpeg
import Testing
@testable import Storyboards

@Suite struct FrameScheduleTests {
    @Test func aCountIsCentredInEqualIntervals() throws {
        let schedule = try FrameSchedule(selection: .count(4), from: 0, to: 8)
        #expect(schedule.entries.map(\.time) == [1, 3, 5, 7])
        #expect(schedule.entries.map(\.start) == [0, 2, 4, 6])
        #expect(schedule.entries.map(\.end) == [2, 4, 6, 8])
    }

    @Test func everyStepStartsAtTheRangeAndTheLastCueEndsWithIt() throws {
        let schedule = try FrameSchedule(selection: .every(10), from: 5, to: 30)
        #expect(schedule.entries.map(\.time) == [5, 15, 25])
        #expect(schedule.entries.map(\.end) == [15, 25, 30])
    }

    @Test func anEmptyRangeOrTooManyFramesIsRefused() {
        #expect(throws: ScheduleProblem.emptyRange(from: 5, to: 5)) { try FrameSchedule(selection: .count(3), from: 5, to: 5) }
        #expect(throws: ScheduleProblem.tooManyFrames(count: 1_000_000, most: FrameSchedule.maxFrames, holder: "a storyboard")) {
            try FrameSchedule(selection: .every(0.001), from: 0, to: 1000)
        }
    }
}

@Suite struct WebVTTTests {
    @Test func cuesNameARectOfASheet() {
        var track = WebVTT()
        track.cues.append(WebVTT.Cue(start: 0, end: 1.2, url: "a.sheet-1.jpg", rect: (0, 0, 160, 90)))
        track.cues.append(WebVTT.Cue(start: 3599.9995, end: 3725.25, url: "a.sheet-1.jpg", rect: (160, 0, 160, 90)))
        #expect(track.text == """
            WEBVTT

            00:00:00.000 --> 00:00:01.200
            a.sheet-1.jpg#xywh=0,0,160,90

            01:00:00.000 --> 01:02:05.250
            a.sheet-1.jpg#xywh=160,0,160,90

            """)
    }

    @Test func namesBecomeURLsThatKeepTheirFragment() {
        #expect(WebVTT.urlPath("my clip#1?.sheet-1.jpg") == "my%20clip%231%3F.sheet-1.jpg")
        #expect(WebVTT.urlPath("é.jpg") == "%C3%A9.jpg")
    }
}

@Suite struct StoryboardNamesTests {
    @Test func sheetsAndFramesAreNamedAfterTheVTT() {
        let sheets = StoryboardNames(vtt: "out/clip.vtt", fileExtension: "jpg", tiling: .sheets(columns: 10, rows: 10), frameCount: 250)
        #expect(sheets.fileCount == 3)
        #expect(sheets.path(2) == "out/clip.sheet-3.jpg")
        #expect(sheets.place(ofFrame: 123) == (1, 23))
        #expect(sheets.frameCount(inFile: 2) == 50)
        let frames = StoryboardNames(vtt: "clip.vtt", fileExtension: "webp", tiling: .none, frameCount: 120)
        #expect(frames.fileCount == 120)
        #expect(frames.path(6) == "clip.007.webp")
    }
}
