import Foundation
import Testing
import TestSupport

/// Damage that went unflagged: a file cut short whose index is at its front was probed "ok" with
/// 60 frames where 20 decode; a clip whose middle is zeroed gave, at a time there, a frame a second
/// later with no warning; a text file named .mp4 got two different reasons from thumbnail and
/// probe, neither saying it is no video.
@Suite struct DamageIsSaidTests {
    /// The index lists 60 frames; the file holds the bytes of 19 and part of one more (ffprobe
    /// -count_packets reads 20).
    @Test func aFileCutShortWithItsIndexAtTheFrontIsSaidToBe() throws {
        let input = Fixture.path("video/truncated-front-index.mp4")
        let run = try ToolRun.run(["probe", input])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.errorLines == ["mediatool: warning: \(input): the file is cut short: 41 of the 60 frames its index lists lie past its end"])
    }

    /// The counter with the middle third of its media data zeroed: the frames at 0.5 s (frame 12)
    /// do not decode, and the thumbnail says so rather than pass a later frame off as that time.
    @Test func aFrameThatDidNotDecodeIsSaid() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = [UInt8](try Fixture.data("video/counter.mp4"))
        let mdat = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("mdat".utf8) })
        let length = Int(bytes[mdat - 4]) << 24 | Int(bytes[mdat - 3]) << 16 | Int(bytes[mdat - 2]) << 8 | Int(bytes[mdat - 1])
        let start = mdat + 4, end = mdat - 4 + length
        for index in (start + (end - start) / 3)..<(start + 2 * (end - start) / 3) { bytes[index] = 0 }
        let decoy = folder.appendingPathComponent("zeroed.mp4").path
        try Data(bytes).write(to: URL(fileURLWithPath: decoy))
        let run = try ToolRun.run(["thumbnail", "--at", "0.5", decoy, "-o", folder.appendingPathComponent("t.png").path])
        #expect(run.status == 0, "\(run.standardError)")
        let warning = try #require(run.errorLines.first)
        #expect(warning.hasPrefix("mediatool: warning: \(decoy): the frames at 0.5 s did not decode (the file is damaged there): wrote the first that did, at "),
                "\(run.errorLines)")
    }

    /// Text named .mp4: one reason from every command, saying it is no video.
    @Test func textNamedAsAVideoIsSaidToBeNoVideoByEveryCommand() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("clip.mp4").path
        try Data("hello, I am text, not a video at all\n".utf8).write(to: URL(fileURLWithPath: text))
        let said = "mediatool: \(text): not a media file FFmpeg can open: its bytes are of no format FFmpeg knows: it is no video, sound or picture"
        for command in [["probe"], ["thumbnail", "-o", folder.appendingPathComponent("t.png").path],
                        ["storyboard", "--vtt", folder.appendingPathComponent("s.vtt").path]] {
            let run = try ToolRun.run([command[0], text] + command.dropFirst())
            #expect(run.status == 1)
            #expect(run.errorLines.first == said, "\(command[0]): \(run.errorLines)")
        }
    }
}
