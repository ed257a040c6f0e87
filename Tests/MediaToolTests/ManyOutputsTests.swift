import Foundation
import Testing
import TestSupport

/// What mediatool holds open does not grow with a job's outputs. A storyboard of
/// 1100 pictures held 3 descriptors and 1 MiB a picture until its end, and past about a thousand
/// the worker "ended unexpectedly". Run here with 64 descriptors at most (`prlimit`, which
/// mediatool cannot raise past its hard limit).
@Suite struct ManyOutputsTests {
    static let video = Fixture.path("video/counter.mp4")

    @Test(arguments: ["on", "off"])
    func aStoryboardOfElevenHundredPicturesNeedsFewDescriptors(sandbox: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["storyboard", "--sandbox", sandbox, "--count", "1100", "--tile", "none", "--width", "16",
                                   "--json", "--out-dir", folder.path, Self.video],
                                  launcher: ["prlimit", "--nofile=64:64"])
        #expect(run.status == 0, "\(run.standardError)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count == 1101)
        #expect(!names.contains { $0.hasPrefix(".mediatool-tmp-") })
        // The report, past what one packet of the worker's socket holds, came whole.
        let report = try #require(try JSONSerialization.jsonObject(with: run.standardOutput) as? [String: Any])
        #expect((report["frames"] as? [Any])?.count == 1100)
        let vtt = try String(contentsOfFile: folder.appendingPathComponent("counter.vtt").path, encoding: .utf8)
        #expect(vtt.components(separatedBy: " --> ").count == 1101)
    }

    @Test func fourHundredThumbnailSizesNeedFewDescriptors() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sizes = (8..<408).map(String.init).joined(separator: ",")
        let run = try ToolRun.run(["thumbnail", "--sizes", sizes, "--enlarge", "--out-dir", folder.path, Fixture.path("pictures/orientation6.jpg")],
                                  launcher: ["prlimit", "--nofile=64:64"])
        #expect(run.status == 0, "\(run.standardError)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count == 400)
        #expect(names.contains("orientation6.407.png"))
    }

    /// A storyboard of one file a frame holds every output open until all move into place together:
    /// past the soft limit on open files (1024 on Debian), it failed with "Too many open files". The
    /// tool raises the soft limit to the hard one; here the soft limit is 48, the hard one 4096.
    @Test func moreFramesThanTheSoftLimitOnOpenFiles() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["storyboard", "--tile", "none", "--count", "100", Fixture.path("video/late-keyframe.ts"),
                                   "--out-dir", folder.path], launcher: ["prlimit", "--nofile=48:4096"])
        #expect(run.status == 0 && run.standardError == "", "\(run.errorLines)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 101)
    }
}
