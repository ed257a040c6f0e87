import Foundation
import Glibc
import FileIO
import Testing

/// A group of thousands of outputs closes each as it is finished, its temporary
/// named after an output still open beside it, whose lock keeps it from runs removing leftovers.
@Suite struct FinishedOutputTests {
    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func aFinishedOutputHoldsNoDescriptorAndIsKeptWhileItsAnchorLives() throws {
        let folder = try AtomicOutputFileTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let anchor = try AtomicOutputFile(path: folder.appendingPathComponent("index.vtt").path, policy: OutputPolicy(overwrite: false))
        let sheet = try AtomicOutputFile(path: folder.appendingPathComponent("sheet-1.jpg").path, policy: OutputPolicy(overwrite: false))
        AtomicOutputFileTests.write("pixels", to: sheet)
        let descriptor = sheet.descriptor
        try sheet.finish(besides: anchor)
        #expect(!sheet.isWriting)
        #expect(fcntl(descriptor, F_GETFD) == -1, "the finished output's descriptor is closed")
        let temporaries = try Self.names(in: folder)
        #expect(temporaries.count == 2)
        #expect(TemporaryFiles.removeLeftovers(in: folder.path) == [], "the anchor's lock keeps both")
        var group = AtomicOutputGroup()
        group.append(anchor)
        group.append(sheet)
        try group.commit()
        #expect(try Self.names(in: folder) == ["index.vtt", "sheet-1.jpg"])
        #expect(try String(contentsOfFile: folder.appendingPathComponent("sheet-1.jpg").path, encoding: .utf8) == "pixels")
    }

    @Test func aFinishedTemporaryWhoseAnchorIsGoneOrUnlockedIsALeftover() throws {
        let folder = try AtomicOutputFileTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let anchor = ".mediatool-tmp-12-abc-0000beef"
        let held = ".mediatool-tmp-13-abc-0000beef"
        for name in [anchor, anchor + "-1", anchor + "-2", held, held + "-3", ".mediatool-tmp-14-abc-0000beef-4", ".mediatool-tmp-mine-5"] {
            #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data("x".utf8)))
        }
        // A live run's anchor: its lock held.
        let lock = open(folder.appendingPathComponent(held).path, O_RDONLY | O_CLOEXEC)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
        let removed = TemporaryFiles.removeLeftovers(in: folder.path)
        #expect(removed == [anchor, anchor + "-1", anchor + "-2", ".mediatool-tmp-14-abc-0000beef-4"].sorted())
        #expect(try Self.names(in: folder) == [held, held + "-3", ".mediatool-tmp-mine-5"].sorted())
    }
}
