import Foundation
import Glibc
import FileIO
import Testing
import Reporting

@Suite struct InputFileTests {
    @Test func aFileThatShrinksWhileReadIsAnErrorNotAnEnd() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mediatool-shrink-\(UUID().uuidString)").path
        defer { unlink(path) }
        try Data(repeating: 7, count: 1 << 20).write(to: URL(fileURLWithPath: path))
        let file = try InputFile(path: path)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        #expect(try buffer.withUnsafeMutableBytes { try file.read(into: $0) } == 1 << 16)
        #expect(truncate(path, 100_000) == 0)
        #expect(throws: InputError.shrank(expected: 1 << 20, found: 100_000)) {
            while try buffer.withUnsafeMutableBytes({ try file.read(into: $0) }) > 0 {}
        }
    }

    @Test func aFileThatGrowsIsReadAsItWasWhenOpened() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mediatool-grow-\(UUID().uuidString)").path
        defer { unlink(path) }
        try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: path))
        let file = try InputFile(path: path)
        let handle = FileHandle(forWritingAtPath: path)!
        handle.seekToEndOfFile()
        handle.write(Data(repeating: 8, count: 1000))
        try handle.close()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while case let count = try buffer.withUnsafeMutableBytes({ try file.read(into: $0) }), count > 0 { total += count }
        #expect(total == 1000)
    }

    @Test func namesThatAreNotUTF8KeepTheirBytes() {
        let bytes: [UInt8] = [0x63, 0xE9, 0x2E, 0xFF, 0xC3, 0x28, 0xF4, 0x8F, 0xBE, 0x80]
        let path = PathBytes.string(bytes)
        #expect(PathBytes.bytes(path) == bytes)
        #expect(Diagnostics.printable(path) == "c\\xe9.\\xff\\xc3(\\xf4\\x8f\\xbe\\x80")
        #expect(PathBytes.string(Array("ordinary/é.png".utf8)) == "ordinary/é.png")
    }
}
