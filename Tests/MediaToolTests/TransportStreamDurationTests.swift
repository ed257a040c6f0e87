import Foundation
import Testing
import TestSupport

/// An MPEG-TS whose timestamps jump back part way (a splice, a restarted encoder) is timed as
/// ffprobe times it, within the 1 ms the README promises.
@Suite struct TransportStreamDurationTests {
    static let ffprobe = "/usr/bin/ffprobe"

    @Test(.enabled(if: try Requirement.tool(StoryboardTests.ffmpeg) && Requirement.tool(ffprobe), "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func aStreamWhoseTimesJumpBackLastsWhatFFprobeSays() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ts = folder.appendingPathComponent("spliced.ts").path
        // Both streams' times go back 0.22 s after their 100th packet.
        let jump = "setts=ts=if(gt(N\\,100)\\,PTS-20000\\,PTS)"
        let made = try ChildProcess.run(StoryboardTests.ffmpeg, [
            "-hide_banner", "-loglevel", "error", "-nostdin",
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=6", "-f", "lavfi", "-i", "sine=duration=6",
            "-c:v", "libx264", "-c:a", "aac", "-bsf:v", jump, "-bsf:a", jump, "-f", "mpegts", ts])
        try #require(made.status == 0, "\(String(decoding: made.standardError, as: UTF8.self))")

        let reference = try ChildProcess.run(Self.ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", ts])
        let expected = try #require(Double(String(decoding: reference.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        let probe = try ToolRun.run(["probe", ts])
        let probed = try #require(try JSONSerialization.jsonObject(with: probe.standardOutput) as? [String: Any])
        let duration = try #require(probed["duration"] as? Double)
        #expect(abs(duration - expected) <= 0.001, "mediatool \(duration) s, ffprobe \(expected) s")
    }
}
