import Foundation
import Testing
import TestSupport

/// A preview counts against --max-memory what it holds beside its decoding: its encoder, and for
/// --max-bytes every frame kept to encode again (a 4K clip took 581 MiB under 256M); what it
/// cannot have is refused at once. The memory one of its passes waits for (the other's decoding,
/// in a sandboxed worker) it gets without stalling the worker's other messages.
@Suite struct PreviewMemoryTests {
    /// A 1280x720 clip of 4 s with a keyframe a second: decoded in two passes side by side.
    static func clip(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("hd.mp4").path
        let made = try ChildProcess.run(StoryboardTests.ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-f", "lavfi",
                                                                 "-i", "testsrc2=size=1280x720:rate=25:duration=4", "-c:v", "libx264",
                                                                 "-preset", "ultrafast", "-g", "25", path])
        try #require(made.status == 0, "\(String(decoding: made.standardError, as: UTF8.self))")
        return path
    }

    @Test(.enabled(if: try Requirement.tool(StoryboardTests.ffmpeg), "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func whatThePreviewHoldsIsCountedBeforeItIsHeld() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try Self.clip(in: folder)
        // 40 frames of 1280x720 RGB kept (105 MiB), the WebP encoder's 32 MiB and the 5 frames its
        // thread holds (13.2 MiB), decoding 14 MiB (a job of the run's two has one thread: no
        // second pass).
        let run = try ToolRun.run(["preview", clip, "--max-memory", "100M", "--width", "1280", "--max-bytes", "1000",
                                   "--sandbox", "off", "--out-dir", folder.path])
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1)
        #expect(run.standardError.contains("the preview needs 165 MiB (its decoding, its encoder, the frames decoded ahead and those kept to encode again for --max-bytes), over --max-memory's 100 MiB"),
                "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("hd.preview.webp").path))
    }

    /// The decoding of each pass (14 MiB of 1280x720) fits in 20M, but not both at once: one pass
    /// waits for the other's, which the worker gives back while the first's question is open.
    /// (Before, the parent stopped reading that worker while it waited, and the worker held its
    /// socket while it waited for the answer: the run ended at its timeout.)
    @Test(.enabled(if: try Requirement.tool(StoryboardTests.ffmpeg), "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func aWorkerWaitingForItsOwnMemoryGetsIt() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try Self.clip(in: folder)
        let run = try ToolRun.run(["preview", clip, "--max-memory", "20M", "--fps", "5", "--segments", "2",
                                   "--segment-length", "1", "--timeout", "60", "--out-dir", folder.path], deadline: 120)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError == "")
        let written = try Data(contentsOf: folder.appendingPathComponent("hd.preview.webp"))
        #expect(written.count > 1000 && written.starts(with: Array("RIFF".utf8)))
    }
}
