import Foundation
import Glibc
import Testing
import TestSupport

/// Issue 38, item 13: two --skip-existing runs at once (a restarted pod beside the old one) failed
/// 37 of 40 inputs with "output exists": an output of an input's that another run made meanwhile,
/// not only its first, means the input is done, and is skipped. The run is held on its FIFO input
/// while the output appears.
@Suite struct SkipExistingRaceTests {
    @Test(arguments: ["on", "off"])
    func aLaterSizeMadeByAnotherRunMeanwhileIsSkipped(sandbox: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("a.jpg").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let picture = try Fixture.data("pictures/orientation6.jpg")
        let other = folder.appendingPathComponent("a.16.png")
        let run = try ChildProcess.run(ToolRun.executable.path, ["thumbnail", "--sandbox", sandbox, "--skip-existing", "--sizes", "8,16,24", fifo],
                                       directory: folder) { process in
            let writer = FileHandle(forWritingAtPath: fifo)!
            try ChildProcess.waitUntil("the run to read the FIFO") { ChildProcess.isBlockedReading(process.processIdentifier) }
            try Data("made by another run".utf8).write(to: other)
            writer.write(picture)
            try writer.close()
        }
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        #expect(run.standardError.isEmpty, "\(String(decoding: run.standardError, as: UTF8.self))")
        #expect(try Data(contentsOf: other) == Data("made by another run".utf8))
        // Nothing of this run's is left: its outputs appear together or not at all.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.16.png", "a.jpg"])
    }

    @Test func anOutputThatWasThereBeforeTheRunStillFailsWithoutSkipExisting() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: Fixture.path("pictures/orientation6.jpg"), toPath: folder.appendingPathComponent("a.jpg").path)
        try Data("mine".utf8).write(to: folder.appendingPathComponent("a.16.png"))
        let run = try ToolRun.run(["thumbnail", "--sizes", "8,16,24", "a.jpg"], in: folder)
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: a.jpg: output exists: a.16.png (use --overwrite to replace it)"])
    }
}
