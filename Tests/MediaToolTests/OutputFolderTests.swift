import Foundation
import Glibc
import FileIO
import Testing
import TestSupport

/// Writes below a folder that others can change, replaced files, live temporaries.
@Suite struct OutputFolderTests {
    /// With --skip-existing, an output another run made while this one worked on it is skipped, not
    /// a failure. The run is held on its FIFO input while the output appears.
    @Test func anOutputThatAppearsMidRunIsSkippedWithSkipExisting() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("a.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let picture = try Fixture.data("pictures/orientation1.png")
        let output = folder.appendingPathComponent("a.crop.png")
        let run = try ChildProcess.run(ToolRun.executable.path, ["crop", "--skip-existing", "--rect", "0,0,2,2", fifo],
                                       directory: folder) { process in
            let writer = FileHandle(forWritingAtPath: fifo)!
            try ChildProcess.waitUntil("the run to read the FIFO") { ChildProcess.isBlockedReading(process.processIdentifier) }
            try Data("made by another run".utf8).write(to: output)
            writer.write(picture)
            try writer.close()
        }
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        #expect(try Data(contentsOf: output) == Data("made by another run".utf8))
    }

    /// `mv out/sub out/sub.real; ln -s ../outside out/sub` while a --recursive batch runs sent the
    /// next outputs into outside/. The run is held on a FIFO input while the folder is swapped.
    @Test func aFolderSwappedForALinkMidRunRedirectsNothing() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        for path in ["in/sub", "out/sub", "outside"] {
            try manager.createDirectory(at: folder.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        try manager.copyItem(atPath: Fixture.path("pictures/orientation1.png"), toPath: folder.appendingPathComponent("in/sub/y.png").path)
        let fifo = folder.appendingPathComponent("in/0.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let holder = Glibc.open(fifo, O_RDWR)
        var holderOpen = true
        defer { if holderOpen { close(holder) } }
        let run = try ChildProcess.run(ToolRun.executable.path, ["crop", "--jobs", "1", "--recursive", "--rect", "0,0,2,2", "--out-dir", "out", "in"],
                                       directory: folder) { process in
            try ChildProcess.waitUntil("the run to read the FIFO") { ChildProcess.isBlockedReading(process.processIdentifier) }
            try manager.moveItem(atPath: folder.appendingPathComponent("out/sub").path, toPath: folder.appendingPathComponent("out/sub.real").path)
            try manager.createSymbolicLink(atPath: folder.appendingPathComponent("out/sub").path, withDestinationPath: "../outside")
            close(holder)
            holderOpen = false
        }
        let errors = String(decoding: run.standardError, as: UTF8.self)
        #expect(run.status == 1)
        #expect(errors.contains("mediatool: in/sub/y.png: output out/sub/y.crop.png would be written outside out"), "\(errors)")
        #expect(try manager.contentsOfDirectory(atPath: folder.appendingPathComponent("outside").path) == [])
    }

    /// Replacing by rename made a 0600 file 0644.
    @Test func aReplacedFileKeepsItsMode() throws {
        let output = try ScratchOutput("out.png")
        try Data("old".utf8).write(to: URL(fileURLWithPath: output.path))
        #expect(chmod(output.path, 0o600) == 0)
        let hardLink = output.folder.appendingPathComponent("hard-link").path
        #expect(link(output.path, hardLink) == 0)
        let run = try ToolRun.run(["crop", "--overwrite", "--rect", "0,0,2,2", Fixture.path("pictures/orientation1.png"), "-o", output.path])
        #expect(run.status == 0, "\(run.standardError)")
        var status = stat()
        #expect(stat(output.path, &status) == 0 && status.st_mode & 0o7777 == 0o600)
        #expect(try DecodedPNG(path: output.path).width == 2)
        // The README says so: a hard link to the replaced file keeps the old content.
        #expect(FileManager.default.contents(atPath: hardLink) == Data("old".utf8))
    }

    /// A temporary whose name says its process is gone, but whose lock is held (a run in another
    /// PID namespace), is live: no other run removes it. Once the lock goes, the next run does.
    @Test func aLockedTemporaryIsNeverTakenForALeftover() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: Fixture.path("pictures/orientation1.png"), toPath: folder.appendingPathComponent("a.png").path)
        let temporary = folder.appendingPathComponent(".mediatool-tmp-4194305-abc-\(AtomicOutputFile.hostTag)").path
        let held = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0)
        #expect(try ToolRun.run(["crop", "--rect", "0,0,2,2", "a.png"], in: folder).status == 0)
        #expect(FileManager.default.fileExists(atPath: temporary))
        close(held)
        #expect(try ToolRun.run(["crop", "--overwrite", "--rect", "0,0,2,2", "a.png"], in: folder).status == 0)
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }
}
