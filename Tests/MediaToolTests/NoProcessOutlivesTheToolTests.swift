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
        // Inputs that are not there: the workers started are never used.
        ["probe", "--json", "FOLDER/missing1.jpg", "FOLDER/missing2.mov"],
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
        let failing = arguments.contains("--no-such-flag") ? 64 : arguments.contains { $0.contains("missing") } ? 1 : 0
        #expect(run.status == failing, "\(run.standardError)")
    }

    /// SIGTERM while a worker hangs in its job, and a reader of standard output that goes after one
    /// byte: the process ends without a deinit, and still leaves nothing.
    @Test func nothingIsLeftWhenASignalOrAGoneReaderEndsTheTool() throws {
        let folder = try SandboxTests.batch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in").path
        let terminated = try ToolRun.run(["probe", "--json", input], launcher: ["python3", Self.script, "--term-when-paused"],
                                         environment: ["MEDIATOOL_TEST_WORKER_TRIGGER": "hang:v2.mkv"], deadline: 60)
        // Ended by the signal (143), or, on a loaded machine, by the batch itself within the
        // signal's grace with the hanging input failed (1): nothing may be left either way.
        #expect([143, 1].contains(terminated.status), "\(terminated.standardError)")
        #expect(terminated.errorLines.last == "orphans: 0")
        let headed = try ChildProcess.run("/usr/bin/python3", [Self.script, "/bin/sh", "-c", "\"$0\" probe --json \"$1\" | head -c 1",
                                                                ToolRun.executable.path, input], deadline: 60)
        #expect(String(decoding: headed.standardError, as: UTF8.self).split(separator: "\n").last == "orphans: 0")
    }
}
