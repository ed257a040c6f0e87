import Foundation
import Testing
import TestSupport

/// Probe wrote a lone surrogate (`\uDCA9`) for valid UTF-8 of plane 16 in a
/// camera's make, as it writes a byte of a file name that is not UTF-8, and strict JSON parsers
/// refused the line. Text read from a file is written as itself.
@Suite struct ProbeTextTests {
    static let exiftool = "/usr/bin/exiftool"

    @Test(.enabled(if: try Requirement.tool(exiftool), "ExifTool is not installed (scripts/bootstrap test installs it)"))
    func aMakeOfPlaneSixteenIsWrittenAsItself() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = folder.appendingPathComponent("p.jpg").path
        try FileManager.default.copyItem(atPath: Fixture.path("pictures/orientation6.jpg"), toPath: picture)
        let make = "Cam\u{10FFA9}era"
        let tag = try ChildProcess.run(Self.exiftool, ["-overwrite_original", "-charset", "exif=utf8", "-Make=\(make)", picture])
        #expect(tag.status == 0, "\(String(decoding: tag.standardError, as: UTF8.self))")
        let run = try ToolRun.run(["probe", "--json", picture])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!run.output.contains("\\uDC"), "\(run.output)")
        // ExifTool's own reading, and a parser that refuses lone surrogates (UTF-8 decoding is strict).
        let report = try #require(try JSONSerialization.jsonObject(with: run.standardOutput) as? [String: Any])
        #expect(report["make"] as? String == make)
        let exif = try ChildProcess.run(Self.exiftool, ["-s3", "-Make", picture])
        #expect(String(decoding: exif.standardOutput, as: UTF8.self).trimmingCharacters(in: .newlines) == make)
    }

    /// A file name's byte that is not UTF-8 is still written as the surrogate Python's os.fsencode reads back.
    @Test func aNameThatIsNotUTF8KeepsItsEscape() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = try ChildProcess.run("/bin/sh", ["-c", "cp \"$1\" \"$2\"/$(printf 'p\\251.jpg')", "sh", Fixture.path("pictures/orientation6.jpg"), folder.path])
        #expect(copy.status == 0)
        let run = try ToolRun.run(["probe", "--json", "."], in: folder)
        #expect(run.output.contains("\"input\":\"./p\\uDCA9.jpg\""), "\(run.output)")
    }
}
