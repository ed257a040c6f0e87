import FileIO
import Foundation
import Testing

/// What an input is, every reader tells from the same first bytes: read once, kept with the input.
@Suite struct InputHeadTests {
    @Test func theFirstBytesAreReadOnceForEveryReader() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("head-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0x41, count: 10_000).write(to: URL(fileURLWithPath: path))
        let file = try InputFile(path: path)
        let first = try file.head()
        #expect(first == [UInt8](repeating: 0x41, count: InputFile.headLength))
        // The same file changed in place (a writer that has not finished): the readers that ask
        // later see what the first saw.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data(repeating: 0x42, count: 16))
        try handle.close()
        #expect(try file.head() == first)
    }

    @Test func aShortInputsHeadIsAllOfIt() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("head-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        #expect(try InputFile(path: path).head() == [1, 2, 3])
    }

    /// A worker's input tells its kind from the first bytes the parent read and chose the worker
    /// by, not from a read of its own: a file rewritten between the two reads gave a worker
    /// without FFmpeg a video (the sixth red team: 32 of 150 racing runs ended the worker).
    @Test func anAdoptedInputsHeadIsTheOneItWasSent() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("head-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // What the file holds now: an MP4's first box. What the parent read: a PNG's signature.
        try Data([0, 0, 0, 24] + Array("ftypisom".utf8) + [UInt8](repeating: 0, count: 12)).write(to: URL(fileURLWithPath: path))
        let sent: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        let file = try InputFile(adopting: descriptor, displayName: "upload", head: sent)
        #expect(try file.head() == sent)
        // Without bytes sent, the file's own.
        let own = try InputFile(adopting: open(path, O_RDONLY | O_CLOEXEC), displayName: "upload")
        #expect(try Array(own.head().prefix(8)) == [0, 0, 0, 24] + Array("ftyp".utf8))
    }
}
