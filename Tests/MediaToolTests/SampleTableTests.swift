import Foundation
import Testing
import TestSupport

/// A 3.5 KB MP4 whose video track claims 40 million samples had FFmpeg build a
/// 1 GiB index (probe said "ok", with 40000000 frames; thumbnail and preview took 1-1.5 GiB past
/// --max-memory). A file that is not fragmented holds its samples, a byte or more each: a table
/// claiming more is refused before FFmpeg reads it.
@Suite struct SampleTableTests {
    /// The counter clip with its video track's stsz claiming `count` samples of 100 bytes.
    static func decoy(claiming count: UInt32, in folder: URL) throws -> String {
        var bytes = [UInt8](try Fixture.data("video/counter.mp4"))
        let stsz = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("stsz".utf8) })
        // After the type: version and flags (4), sample size (4), sample count (4).
        for (offset, value) in [(stsz + 8, UInt32(100)), (stsz + 12, count)] {
            for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
        }
        let path = folder.appendingPathComponent("claims.mp4").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [["probe"], ["thumbnail", "--max-memory", "256M"], ["preview"], ["storyboard"]])
    func aTableOfMoreSamplesThanBytesIsRefused(command: [String]) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let decoy = try Self.decoy(claiming: 40_000_000, in: folder)
        let outputs: [String] = switch command[0] {
        case "thumbnail": ["-o", folder.appendingPathComponent("t.png").path]
        case "preview": ["-o", folder.appendingPathComponent("p.webp").path]
        case "storyboard": ["--vtt", folder.appendingPathComponent("s.vtt").path]
        default: []
        }
        let run = try ToolRun.run(command + [decoy] + outputs, deadline: 60)
        #expect(run.status == 1)
        let said = "the file's sample tables: a track claims 40000000 samples, more than the file's"
        #expect(run.standardError.contains(said) || run.output.contains(said), "\(run.standardError)\(run.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["claims.mp4"])
    }

    /// The same file with a count it can hold is read as it is (the check refuses no real table).
    @Test func aTableTheFileCanHoldIsRead() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["probe", try Self.decoy(claiming: 60, in: folder)])
        #expect(run.status == 0, "\(run.standardError)")
    }
}
