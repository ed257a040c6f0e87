import Foundation
import Glibc
import FileIO
import Testing
import TestSupport

/// Outputs never replace an input of the run, two inputs never write one output, and an output's
/// name is compared as the bytes it is. Each test failed before its fix (red-team reviews).
@Suite struct OutputsNeverReplaceInputsTests {
    // MARK: Outputs never replace an input of the run

    @Test(arguments: [(["--count", "3"], "a.sheet-1.jpg"), (["--count", "3", "--tile", "none"], "a.1.jpg")])
    func aStoryboardNeverReplacesAnotherInput(options: [String], victim: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Fixture.copy("video/counter.mp4", to: folder.appendingPathComponent("a.mp4"))
        // A video whose name is what the first video's storyboard would write.
        try Fixture.copy("video/counter.mkv", to: folder.appendingPathComponent(victim))
        let run = try ToolRun.run(["storyboard", "a.mp4", victim, "--overwrite"] + options, in: folder)
        #expect(run.status == 1)
        #expect(run.errorLines.contains("mediatool: a.mp4: output is an input: \(victim) (inputs are never written to)"), "\(run.errorLines)")
        #expect(FileManager.default.contents(atPath: folder.appendingPathComponent(victim).path) == (try Fixture.data("video/counter.mkv")))
    }

    @Test func aStoryboardPageNeverReplacesAnInput() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Fixture.copy("video/counter.mp4", to: folder.appendingPathComponent("a.mp4"))
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
        try Fixture.copy("pictures/orientation1.png", to: folder.appendingPathComponent("d/a.png"))
        try Fixture.copy("pictures/orientation1.jpg", to: folder.appendingPathComponent("d/a.jpg"))
        let run = try ToolRun.run(["crop", "--rect", "0,0,2,2", "d/a.png", "./d/a.jpg"], in: folder)
        #expect(run.status == 64)
        #expect(run.errorLines.first?.hasPrefix("mediatool: d/a.png and ./d/a.jpg would both write ./d/a.crop.png") == true, "\(run.errorLines)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("d/a.crop.png").path))
    }

    @Test func aPageNamedAsItsOwnWebVTTFileIsRefused() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Fixture.copy("video/counter.mp4", to: folder.appendingPathComponent("v.mp4"))
        for page in ["v.vtt", "./v.sheet-1.jpg"] {
            let run = try ToolRun.run(["storyboard", "--count", "3", "v.mp4", "--html", page, "--overwrite"], in: folder)
            #expect(run.status == 1)
            #expect(run.errorLines.first?.hasPrefix("mediatool: v.mp4: --html \(page) is ") == true, "\(run.errorLines)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["v.mp4"])
    }

    /// `-o /proc/self/fd/0` on a pipe opened the input's own write end: the run waited forever.
    @Test func packingToTheStandardInputPipeIsRefused() throws {
        let run = try ToolRun.run(["pack-doubles", "-o", "/proc/self/fd/0"], input: Data("1 2 3\n".utf8), deadline: 30)
        #expect(run.status == 64)
        #expect(run.errorLines.first?.contains("output is an input: /proc/self/fd/0") == true)
    }

    /// Two names that are one text in Unicode (composed and decomposed é) are two files.
    @Test func namesAreComparedAsBytes() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("in"), withIntermediateDirectories: true)
        for name in ["caf\u{E9}.png", "cafe\u{301}.png"] {
            try Fixture.copy("pictures/orientation1.png", to: folder.appendingPathComponent("in/\(name)"))
        }
        let run = try ToolRun.run(["crop", "--rect", "0,0,4,4", "in", "--out-dir", "out"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.errorLines.last?.hasPrefix("mediatool: summary: 2 ok") == true, "\(run.errorLines)")
        let outputs = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path)
        #expect(outputs.count == 2)
    }

    /// An input whose own output is itself is refused (64), never passed over as an output.
    @Test func anInputThatIsItsOwnOutputIsRefusedNotPassedOver() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("in"), withIntermediateDirectories: true)
        try Fixture.copy("pictures/orientation1.png", to: folder.appendingPathComponent("in/a.png"))
        try Fixture.copy("pictures/orientation1.jpg", to: folder.appendingPathComponent("in/b.jpg"))
        let run = try ToolRun.run(["crop", "--rect", "0,0,4,4", "in", "--name", "{stem}.png"], in: folder)
        #expect(run.status == 64)
        #expect(run.errorLines.first?.contains("is the input") == true, "\(run.errorLines)")
    }

    /// Only names of the temporaries' own form are leftovers: a user's `.mediatool-tmp-mine.png` is kept.
    @Test func aFileNamedLikeATemporaryIsNotALeftover() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Fixture.copy("pictures/orientation1.png", to: folder.appendingPathComponent("a.png"))
        #expect(try ToolRun.run(["crop", "--rect", "0,0,2,2", "a.png", "-o", ".mediatool-tmp-mine.png"], in: folder).status == 0)
        #expect(try ToolRun.run(["crop", "--rect", "0,0,2,2", "a.png", "-o", "b.png"], in: folder).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".mediatool-tmp-mine.png").path))
    }

    /// Without --out-dir, a folder of the --name template swapped for a link mid-run is refused too.
    @Test func aTemplateFolderSwappedMidRunRedirectsNothing() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        for path in ["in/sub", "outside"] { try manager.createDirectory(at: folder.appendingPathComponent(path), withIntermediateDirectories: true) }
        try manager.copyItem(atPath: Fixture.path("pictures/orientation1.png"), toPath: folder.appendingPathComponent("in/y.png").path)
        let fifo = folder.appendingPathComponent("in/0.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let holder = Glibc.open(fifo, O_RDWR)
        var holderOpen = true
        defer { if holderOpen { close(holder) } }
        let run = try ChildProcess.run(ToolRun.executable.path, ["crop", "--jobs", "1", "--rect", "0,0,2,2", "--name", "sub/{stem}.png", "in"],
                                       directory: folder) { process in
            try ChildProcess.waitUntil("the run to read the FIFO") { ChildProcess.isBlockedReading(process.processIdentifier) }
            try manager.moveItem(atPath: folder.appendingPathComponent("in/sub").path, toPath: folder.appendingPathComponent("in/sub.real").path)
            try manager.createSymbolicLink(atPath: folder.appendingPathComponent("in/sub").path, withDestinationPath: "../outside")
            close(holder)
            holderOpen = false
        }
        #expect(run.status == 1)
        #expect(String(decoding: run.standardError, as: UTF8.self).contains("mediatool: in/y.png: output in/sub/y.png would be written outside in"))
        #expect(try manager.contentsOfDirectory(atPath: folder.appendingPathComponent("outside").path) == [])
    }
}
