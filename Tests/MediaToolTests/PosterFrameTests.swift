import Foundation
import Testing
import TestSupport

/// `thumbnail --at auto` picks a poster worth showing, not a fade or a flash.
@Suite struct PosterFrameTests {
    static func poster(_ fixture: String) throws -> (seconds: Double, meanLuma: Double, deviation: Double, bytes: Data) {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("poster.png").path
        let run = try ToolRun.run(["thumbnail", "--at", "auto", "--json", Fixture.path("video/\(fixture)"), "-o", output])
        #expect(run.status == 0 && run.standardError == "")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let picture = try DecodedPNG(path: output)
        var lumas: [Double] = []
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let pixel = picture.pixel(x: x, y: y).map(Double.init)
                lumas.append(0.2126 * pixel[0] + 0.7152 * pixel[1] + 0.0722 * pixel[2])
            }
        }
        let mean = lumas.reduce(0, +) / Double(lumas.count)
        let deviation = (lumas.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(lumas.count)).squareRoot()
        return (try #require(report["seconds"] as? Double), mean, deviation, try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// The first second fades in from black: the poster is a frame after the fade, with its detail.
    @Test func aFadeInIsPassedOver() throws {
        let poster = try Self.poster("fade-in.mp4")
        #expect(poster.seconds >= 1)
        #expect(poster.meanLuma > 40 && poster.deviation > 30)
    }

    /// A clip whose only keyframe is its black first frame, fading in over 2 s,
    /// gave that black frame. Its frames at the window's times are looked at, and the poster is
    /// one after the fade, as bright as the pattern (luma about 50 at 64x36) and with its detail.
    @Test func aFadeInWithOneKeyframeIsPassedOver() throws {
        let poster = try Self.poster("fade-in-one-keyframe.mp4")
        #expect(poster.seconds >= 2)
        #expect(poster.meanLuma > 40 && poster.deviation > 30)
    }

    /// A white flash on a keyframe in the window is not the poster.
    @Test func aFlashIsPassedOver() throws {
        let poster = try Self.poster("flash.mp4")
        #expect(poster.seconds != 1)
        #expect(poster.meanLuma < 200 && poster.deviation > 30)
    }

    /// Two cores measure the candidates in two halves, one core in one pass: the same poster, in
    /// every container the fixtures hold (an AVI, whose keyframes' spans are unknown, measured a
    /// keyframe twice in one pass and once in two, and so chose another frame).
    @Test(arguments: ["counter.avi", "counter.mp4", "counter.mkv", "counter.ts", "counter.flv", "counter.ogv", "fade-in.mp4",
                      "fade-in-one-keyframe.mp4", "flash.mp4", "four-seconds.mp4", "late-keyframe.ts", "false-keyframe.mp4"])
    func oneCoreAndTwoChooseTheSamePoster(fixture: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var answers: [String] = []
        for (name, launcher) in [("one", ["taskset", "-c", "0"]), ("two", ["taskset", "-c", "0,1"])] {
            let output = folder.appendingPathComponent("\(name).png").path
            let run = try ToolRun.run(["thumbnail", "--at", "auto", "--json", Fixture.path("video/\(fixture)"), "-o", output], launcher: launcher)
            #expect(run.status == 0, "\(run.standardError)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            answers.append("\(report["seconds"] ?? "none")")
        }
        #expect(answers[0] == answers[1], "\(fixture): \(answers)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("one.png")) == Data(contentsOf: folder.appendingPathComponent("two.png")))
    }

    @Test func theSameInputGivesTheSameFrame() throws {
        let first = try Self.poster("flash.mp4")
        let second = try Self.poster("flash.mp4")
        #expect(first.seconds == second.seconds && first.bytes == second.bytes)
    }
}
