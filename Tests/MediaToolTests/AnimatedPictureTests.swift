import Foundation
import Testing
import TestSupport

/// An animated GIF is a picture to every subcommand: probe and thumbnail say so alike, and its
/// thumbnail is its first frame, as vips and browsers show it, or with `--at` the frame shown then,
/// as for an animated WebP; storyboard and preview, made of a video's frames, refuse it.
@Suite struct AnimatedPictureTests {
    @Test(.enabled(if: try Requirement.tool(StoryboardTests.ffmpeg), "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func anAnimatedGIFIsAPictureShownByItsFirstFrame() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gif = folder.appendingPathComponent("moving.gif").path
        // Ten frames, each unlike the one before (testsrc's moving gradient and counter).
        let made = try ChildProcess.run(StoryboardTests.ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-f", "lavfi",
                                                                 "-i", "testsrc=size=48x32:rate=5:duration=2", gif])
        try #require(made.status == 0, "\(String(decoding: made.standardError, as: UTF8.self))")

        let probe = try ToolRun.run(["probe", gif])
        let probed = try #require(try JSONSerialization.jsonObject(with: probe.standardOutput) as? [String: Any])
        #expect(probed["kind"] as? String == "picture")
        #expect(probed["frames"] as? Int == 10)

        let frames = try StoryboardTests.ffmpegFrames(gif, width: 48, height: 32)
        try #require(frames.count == 10)
        for (at, frame, warning) in [(nil, 0, nil), ("1", 5, "an animated picture: the frame shown at 1 s was read")] {
            let output = folder.appendingPathComponent("moving-\(frame).png").path
            let thumbnail = try ToolRun.run(["thumbnail", gif, "--json", "-o", output] + (at.map { ["--at", $0] } ?? []))
            #expect(thumbnail.status == 0)
            #expect(thumbnail.errorLines == (warning.map { ["mediatool: warning: \(gif): \($0)"] } ?? []))
            let report = try #require(try JSONSerialization.jsonObject(with: thumbnail.standardOutput) as? [String: Any])
            #expect(report["kind"] as? String == "picture")
            #expect(report["seconds"] is NSNull)
            let written = try DecodedPNG(path: output)
            try #require((written.width, written.height) == (48, 32))
            let rgb = (0..<(48 * 32)).flatMap { written.pixel(x: $0 % 48, y: $0 / 48).prefix(3) }
            #expect(rgb == frames[frame], "frame \(frame)")
        }
        for subcommand in ["storyboard", "preview"] {
            let run = try ToolRun.run([subcommand, gif, "--out-dir", folder.appendingPathComponent(subcommand).path])
            #expect(run.status == 1)
            #expect(run.errorLines.first == "mediatool: \(gif): a picture, not a video: a \(subcommand) is made of a video's frames (thumbnail makes pictures of pictures)")
            let written = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(subcommand).path)) ?? []
            #expect(written.isEmpty, "\(written)")
        }
    }
}
