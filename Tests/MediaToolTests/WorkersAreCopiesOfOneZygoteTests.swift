import Foundation
import Testing
import TestSupport

/// Workers are copies of one process that loaded the libraries once (the zygote), made as the
/// batch's own children: the batch waits for each and learns how it ended, as for a worker it
/// started itself; a copy holds nothing of the zygote's; and a zygote that dies costs no input.
@Suite struct WorkersAreCopiesOfOneZygoteTests {
    /// The trigger's report for `v2.mkv`, of a thumbnail batch or of a probe of a mixed folder.
    @Test(arguments: ["thumbnail", "probe"])
    func aCopyIsTheBatchsChildAndHoldsOnlyItsJob(subcommand: String) throws {
        let folder = try SandboxTests.batch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A picture beside the videos: probe starts a worker without FFmpeg for it, and copies
        // with FFmpeg for the videos.
        try FileManager.default.copyItem(atPath: Fixture.path("heif/grid420.heic"),
                                         toPath: folder.appendingPathComponent("in/photo.heic").path)
        let arguments = subcommand == "thumbnail"
            ? ["thumbnail", "--overwrite", "--out-dir", folder.appendingPathComponent("out").path]
            : ["probe", "--json"]
        for input in ["v2.mkv", "photo.heic"] {
            let run = try ToolRun.run(arguments + [folder.appendingPathComponent("in").path],
                                      environment: ["MEDIATOOL_TEST_WORKER_TRIGGER": "lineage:\(input)"], deadline: 60)
            // The socket and the input; thumbnail's output too.
            let held = subcommand == "thumbnail" ? 3 : 2
            #expect(run.errorLines.first == "mediatool: \(folder.appendingPathComponent("in/\(input)").path): "
                        + "a copy of the zygote, the batch's child, \(held) descriptors beyond standard error")
            #expect(run.errorLines.dropFirst().first?.hasPrefix("mediatool: summary: 3 ok, 1 failed, 0 skipped of 4 in ") == true)
        }
    }

    /// The zygote ends at its first request: the workers are started afresh, and every input is made.
    @Test func aZygoteThatDiesCostsNoInput() throws {
        let folder = try SandboxTests.batch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let run = try ToolRun.run(["thumbnail", "--out-dir", out.path, folder.appendingPathComponent("in").path],
                                  environment: ["MEDIATOOL_TEST_ZYGOTE_TRIGGER": "exit"], deadline: 60)
        #expect(run.status == 0)
        #expect(run.errorLines.first?.hasPrefix("mediatool: summary: 3 ok, 0 failed, 0 skipped of 3 in ") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
                == ["v1.thumb.png", "v2.thumb.png", "v3.thumb.png"])
    }

    /// The zygote is stopped (SIGSTOP) at its first request: it is given up at once, not after 30
    /// s, and the workers started afresh make every input (within a deadline far below 30 s).
    @Test func aStoppedZygoteIsGivenUpAtOnce() throws {
        let folder = try SandboxTests.batch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let run = try ToolRun.run(["thumbnail", "--out-dir", out.path, folder.appendingPathComponent("in").path],
                                  environment: ["MEDIATOOL_TEST_ZYGOTE_TRIGGER": "stop"], deadline: 20)
        #expect(run.status == 0)
        #expect(run.errorLines.first?.hasPrefix("mediatool: summary: 3 ok, 0 failed, 0 skipped of 3 in ") == true, "\(run.errorLines)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
                == ["v1.thumb.png", "v2.thumb.png", "v3.thumb.png"])
    }

    /// The zygote ends after it made a copy, before it said the copy's process: the copy, which
    /// says it itself, is still ended at its input's timeout and waited for, and nothing is left.
    @Test func aCopyWhoseZygoteDiedIsStillEndedAtItsTimeout() throws {
        let folder = try SandboxTests.batch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let run = try ToolRun.run(["thumbnail", "--jobs", "1", "--timeout", "2", "--out-dir", out.path, folder.appendingPathComponent("in").path],
                                  launcher: ["python3", NoProcessOutlivesTheToolTests.script],
                                  environment: ["MEDIATOOL_TEST_ZYGOTE_TRIGGER": "exit-after-fork", "MEDIATOOL_TEST_WORKER_TRIGGER": "hang:v2.mkv"],
                                  deadline: 60)
        #expect(run.errorLines.first == "mediatool: \(folder.appendingPathComponent("in/v2.mkv").path): took longer than --timeout 2 s; the file was refused")
        #expect(run.errorLines.last == "orphans: 0")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["v1.thumb.png", "v3.thumb.png"])
    }
}
