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

    /// A header that says the frames are smaller than they are (an MJPEG whose sample description
    /// and track say 64x64 over 2000x2000 pictures): the poster's second reader opened on the
    /// header's word, both readers then held a real frame, and the second waited for the first's
    /// memory until the stall refused the file (the seventh red team's, at 8K). A second reader is
    /// opened once the first has shown a frame, where two fit: here one fits, and the poster is made.
    @Test(.enabled(if: try Requirement.tool(StoryboardTests.ffmpeg), "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func aHeaderThatSaysTheFramesAreSmallOpensNoSecondReader() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = folder.appendingPathComponent("made.mov").path
        let run = try ChildProcess.run(StoryboardTests.ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-f", "lavfi", "-i",
                                                               "testsrc2=s=2000x2000:r=5:d=1", "-c:v", "mjpeg", "-q:v", "10", made], deadline: 120)
        #expect(run.status == 0)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: made)))
        func find(_ type: String) -> Int? { bytes.indices.dropLast(4).first { Array(bytes[$0..<($0 + 4)]) == Array(type.utf8) } }
        // The sample entry's width and height (28 bytes after its type), and the track's (its last 8, 16.16).
        let entry = try #require(find("jpeg")), header = try #require(find("tkhd"))
        let headerEnd = header - 4 + (Int(bytes[header - 4]) << 24 | Int(bytes[header - 3]) << 16 | Int(bytes[header - 2]) << 8 | Int(bytes[header - 1]))
        bytes[(entry + 28)..<(entry + 32)] = [0, 64, 0, 64]
        bytes[(headerEnd - 8)..<headerEnd] = [0, 64, 0, 0, 0, 64, 0, 0]
        let lying = folder.appendingPathComponent("lying.mov").path
        try Data(bytes).write(to: URL(fileURLWithPath: lying))
        let thumbnail = try ToolRun.run(["thumbnail", "--at", "auto", "--max-memory", "100M", "--timeout", "30", lying,
                                         "-o", folder.appendingPathComponent("poster.png").path], deadline: 120)
        #expect(thumbnail.status == 0, "\(thumbnail.standardError)")
        let ingest = try ToolRun.run(["ingest", "--max-memory", "200M", "--timeout", "30", "--out-dir", folder.appendingPathComponent("out").path,
                                      lying], deadline: 120)
        #expect(ingest.status == 0, "\(ingest.standardError)")
    }

    @Test func theSameInputGivesTheSameFrame() throws {
        let first = try Self.poster("flash.mp4")
        let second = try Self.poster("flash.mp4")
        #expect(first.seconds == second.seconds && first.bytes == second.bytes)
    }
}
