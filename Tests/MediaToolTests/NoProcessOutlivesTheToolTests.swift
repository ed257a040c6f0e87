import Foundation
import Testing
import TestSupport

/// When the tool exits, its workers and their zygote have ended and been waited for: none is left
/// to whatever reaps orphans, which in a container (a server as its first process) may be nothing.
/// The tool runs under a child subreaper that counts what it leaves.
@Suite struct NoProcessOutlivesTheToolTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/orphans_left.py").path

    @Test(arguments: [
        // A folder: workers for pictures and copies with FFmpeg.
        ["probe", "--json", "FOLDER"],
        // One file.
        ["thumbnail", "--overwrite", "-o", "OUT/one.png", "FOLDER/v1.mkv"],
        // A usage error: the zygote started before the arguments were read, which no run takes.
        ["probe", "--no-such-flag", "FOLDER"],
    ])
    func nothingIsLeftRunningOrUnreaped(arguments: [String]) throws {
        let folder = try SandboxTests.batch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: Fixture.path("heif/grid420.heic"), toPath: folder.appendingPathComponent("in/photo.heic").path)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        let resolved = arguments.map {
            $0.replacingOccurrences(of: "FOLDER", with: folder.appendingPathComponent("in").path)
                .replacingOccurrences(of: "OUT", with: folder.appendingPathComponent("out").path)
        }
        let run = try ToolRun.run(resolved, launcher: ["python3", Self.script], deadline: 60)
        #expect(run.errorLines.last == "orphans: 0")
        #expect(run.status == (arguments.contains("--no-such-flag") ? 64 : 0), "\(run.standardError)")
    }
}
