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
}
