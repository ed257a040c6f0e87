import Foundation
import Testing
import TestSupport

/// Issue 23: what a red team found. Each test failed before its fix.
@Suite struct FieldRoundThreeTests {
    static func copy(_ fixture: String, to path: URL) throws {
        try FileManager.default.copyItem(atPath: Fixture.path(fixture), toPath: path.path)
    }

    // MARK: Outputs never replace an input of the run

    @Test(arguments: [(["--count", "3"], "a.sheet-1.jpg"), (["--count", "3", "--tile", "none"], "a.1.jpg")])
    func aStoryboardNeverReplacesAnotherInput(options: [String], victim: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.copy("video/counter.mp4", to: folder.appendingPathComponent("a.mp4"))
        // A video whose name is what the first video's storyboard would write.
        try Self.copy("video/counter.mkv", to: folder.appendingPathComponent(victim))
        let run = try ToolRun.run(["storyboard", "a.mp4", victim, "--overwrite"] + options, in: folder)
        #expect(run.status == 1)
        #expect(run.errorLines.contains("mediatool: a.mp4: output is an input: \(victim) (inputs are never written to)"), "\(run.errorLines)")
        #expect(FileManager.default.contents(atPath: folder.appendingPathComponent(victim).path) == (try Fixture.data("video/counter.mkv")))
    }

    @Test func aStoryboardPageNeverReplacesAnInput() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.copy("video/counter.mp4", to: folder.appendingPathComponent("a.mp4"))
        let run = try ToolRun.run(["storyboard", "a.mp4", "--count", "2", "--html", "a.mp4", "--overwrite"], in: folder)
        #expect(run.status == 64)
        #expect(run.errorLines == ["mediatool: output is an input: a.mp4 (inputs are never written to) (see 'mediatool storyboard --help')"])
        #expect(FileManager.default.contents(atPath: folder.appendingPathComponent("a.mp4").path) == (try Fixture.data("video/counter.mp4")))
    }

    /// `pack-array -o a.txt --overwrite <a.txt`, `- -o /proc/self/fd/0`, `-o` a link to the file read.
    @Test(arguments: ["a.txt", "/proc/self/fd/0", "link"], ["pack-array", "pack-doubles"])
    func packingNeverReplacesTheFileStandardInputReads(output: String, command: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("a.txt")
        try Data("1 2 3\n".utf8).write(to: text)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link").path, withDestinationPath: "a.txt")
        let type = command == "pack-array" ? ["--type", "f64"] : []
        let run = try ChildProcess.run(ToolRun.executable.path, [command] + type + ["-", "-o", output, "--overwrite"],
                                       standardInput: FileHandle(forReadingAtPath: text.path), directory: folder)
        #expect(run.status == 64)
        #expect(String(decoding: run.standardError, as: UTF8.self).contains("output is an input"))
        #expect(try String(contentsOf: text, encoding: .utf8) == "1 2 3\n")
    }

    // MARK: Two inputs never write one output

    @Test func twoSpellingsOfOneOutputAreACollision() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("d"), withIntermediateDirectories: true)
        try Self.copy("pictures/orientation1.png", to: folder.appendingPathComponent("d/a.png"))
        try Self.copy("pictures/orientation1.jpg", to: folder.appendingPathComponent("d/a.jpg"))
        let run = try ToolRun.run(["crop", "--rect", "0,0,2,2", "d/a.png", "./d/a.jpg"], in: folder)
        #expect(run.status == 64)
        #expect(run.errorLines.first?.hasPrefix("mediatool: d/a.png and ./d/a.jpg would both write ./d/a.crop.png") == true, "\(run.errorLines)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("d/a.crop.png").path))
    }
}
