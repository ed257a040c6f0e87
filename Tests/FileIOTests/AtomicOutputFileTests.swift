import Foundation
import Glibc
import FileIO
import Testing

@Suite struct AtomicOutputFileTests {
    static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mediaio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func write(_ text: String, to file: AtomicOutputFile) {
        var text = text
        text.withUTF8 { _ = Glibc.write(file.descriptor, $0.baseAddress!, $0.count) }
    }

    @Test func theFileAppearsWholeOnlyOnCommit() throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.txt").path
        let file = try AtomicOutputFile(path: path, policy: OutputPolicy(overwrite: false))
        Self.write("hello", to: file)
        #expect(!FileManager.default.fileExists(atPath: path))
        let temporaries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(temporaries.count == 1 && temporaries[0].hasPrefix(".mediatool-tmp-"))
        try file.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "hello")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.txt"])
    }

    @Test func anAbandonedFileLeavesNothing() throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let file = try AtomicOutputFile(path: folder.appendingPathComponent("out.txt").path, policy: OutputPolicy(overwrite: false))
            Self.write("partial", to: file)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test func existingOutputsAreKeptUnlessOverwriting() throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.txt").path
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: OutputError.exists(path: path)) { try AtomicOutputFile(path: path, policy: OutputPolicy(overwrite: false)) }

        // An output that appears while the temporary is written is not replaced either.
        try FileManager.default.removeItem(atPath: path)
        let racing = try AtomicOutputFile(path: path, policy: OutputPolicy(overwrite: false))
        try "newer".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: OutputError.exists(path: path)) { try racing.commit() }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "newer")

        let replacing = try AtomicOutputFile(path: path, policy: OutputPolicy(overwrite: true))
        Self.write("new", to: replacing)
        try replacing.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
    }

    @Test func aMissingFolderIsAnError() {
        #expect(throws: OutputError.missingFolder(path: "/nonexistent-mediatool-folder/out.txt", folder: "/nonexistent-mediatool-folder/")) {
            try AtomicOutputFile(path: "/nonexistent-mediatool-folder/out.txt", policy: OutputPolicy(overwrite: false))
        }
    }
}
