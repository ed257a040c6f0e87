import Foundation
import Testing
import TestSupport

@Suite struct BatchRunTests {
    /// A scratch folder of `count` small clips (clip00.mkv ...) and, optionally, broken ones.
    static func clips(_ count: Int, broken: [String] = []) throws -> URL {
        let folder = try Fixture.scratchFolder()
        let videos = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
        for index in 0..<count {
            try FileManager.default.copyItem(atPath: Fixture.path("video/counter.mkv"),
                                             toPath: videos.appendingPathComponent(String(format: "clip%02d.mkv", index)).path)
        }
        for name in broken {
            try Data("not a video".utf8).write(to: videos.appendingPathComponent(name))
        }
        return folder
    }

    static func jsonLines(_ run: ToolRun) throws -> [[String: Any]] {
        try run.output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    static func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func aMixedBatchReportsEveryInputAndFinishesTheGoodOnes() throws {
        let folder = try Self.clips(3, broken: ["bad.mp4"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let run = try ToolRun.run(["thumbnail", "--json", "--jobs", "2", "--at", "0.5", "--out-dir", out.path,
                                   folder.appendingPathComponent("in").path])
        #expect(run.status == 1)
        let bad = folder.appendingPathComponent("in/bad.mp4").path
        #expect(run.errorLines.count == 3)
        #expect(run.errorLines.first == "mediatool: \(bad): not a media file FFmpeg can open: its bytes are of no format FFmpeg knows: it is no video, sound or picture")
        #expect(run.errorLines.dropFirst().first?.hasPrefix("mediatool: summary: 3 ok, 1 failed, 0 skipped of 4 in ") == true)
        #expect(run.errorLines.last == "mediatool: failed: \(bad)")
        #expect(try Self.files(in: out) == ["clip00.thumb.png", "clip01.thumb.png", "clip02.thumb.png"])

        let lines = try Self.jsonLines(run)
        #expect(lines.count == 4)
        let byInput = Dictionary(uniqueKeysWithValues: lines.map { ($0["input"] as! String, $0) })
        let failed = try #require(byInput[bad])
        #expect(failed["status"] as? String == "failed")
        #expect((failed["error"] as? String)?.hasPrefix("not a media file") == true)
        let good = try #require(byInput[folder.appendingPathComponent("in/clip01.mkv").path])
        #expect(good["status"] as? String == "ok" && good["error"] is NSNull)
        #expect(good["output"] as? String == out.appendingPathComponent("clip01.thumb.png").path)
        #expect(good["width"] as? Int == 128 && good["height"] as? Int == 16 && good["orientation"] as? Int == 1)
        #expect((good["seconds"] as? Double).map { abs($0 - 0.48) < 1e-9 } == true)
        #expect(good["ms"] is Int)
    }

    @Test func shardsAreDisjointAndTogetherComplete() throws {
        let folder = try Self.clips(12)
        defer { try? FileManager.default.removeItem(at: folder) }
        var seen: [String] = []
        for shard in 0..<3 {
            let run = try ToolRun.run(["crop", "--json", "--quiet", "--shard", "\(shard)/3", "--rect", "0,0,4,4",
                                       "--out-dir", folder.appendingPathComponent("out").path, "--include", "*.mkv",
                                       folder.appendingPathComponent("in").path])
            // Not pictures: every input fails, and is reported, in exactly one shard.
            seen += try Self.jsonLines(run).map { $0["input"] as! String }
        }
        #expect(seen.count == 12)
        #expect(Set(seen).count == 12)
    }

    @Test func skipExistingResumesARun() throws {
        let folder = try Self.clips(4)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("in")
        let first = try ToolRun.run(["thumbnail", "--quiet", "--at", "0", inputs.appendingPathComponent("clip01.mkv").path,
                                     inputs.appendingPathComponent("clip03.mkv").path])
        #expect(first.status == 0 && first.standardError == "")
        let again = try ToolRun.run(["thumbnail", "--json", "--skip-existing", "--at", "0", inputs.path])
        #expect(again.status == 0)
        let statuses = Dictionary(uniqueKeysWithValues: try Self.jsonLines(again).map {
            (URL(fileURLWithPath: $0["input"] as! String).lastPathComponent, $0["status"] as! String)
        })
        #expect(statuses == ["clip00.mkv": "ok", "clip01.mkv": "skipped", "clip02.mkv": "ok", "clip03.mkv": "skipped"])
        #expect(again.errorLines.last?.hasPrefix("mediatool: summary: 2 ok, 0 failed, 2 skipped of 4 in ") == true)
    }

    @Test func collisionsAreRefusedBeforeAnythingIsWritten() throws {
        let folder = try Self.clips(0)
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.mkv").path
        let b = folder.appendingPathComponent("in/a.mkv").path
        try FileManager.default.copyItem(atPath: Fixture.path("video/counter.mkv"), toPath: a)
        try FileManager.default.copyItem(atPath: Fixture.path("video/counter.mkv"), toPath: b)
        let out = folder.appendingPathComponent("out").path
        let run = try ToolRun.run(["thumbnail", "--out-dir", out, a, b])
        #expect(run.status == 64)
        #expect(run.errorLines == ["mediatool: \(a) and \(b) would both write \(out)/a.thumb.png; --name can tell them apart: {stem}, {ext} and {dir} are the input's name, extension and folder (e.g. '{dir}-{stem}.{ext}.png') (see 'mediatool thumbnail --help')"])
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func folderTreesKeepTheirShapeUnderOutDir() throws {
        let folder = try Self.clips(1)
        defer { try? FileManager.default.removeItem(at: folder) }
        let deeper = folder.appendingPathComponent("in/day2/evening")
        try FileManager.default.createDirectory(at: deeper, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixture.path("video/counter.mp4"), toPath: deeper.appendingPathComponent("x.mp4").path)
        let out = folder.appendingPathComponent("out")
        let run = try ToolRun.run(["thumbnail", "--quiet", "--recursive", "--at", "0", "--out-dir", out.path,
                                   "--name", "{dir}-{stem}.png", folder.appendingPathComponent("in").path])
        #expect(run.status == 0)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("in-clip00.png").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("day2/evening/evening-x.png").path))
    }

    /// After kill -9 mid-run, every output under its own name is whole; the next run cleans the
    /// temporaries the killed one left and finishes the rest.
    @Test func aKilledRunLeavesNoPartialOutput() throws {
        let folder = try Self.clips(40)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let arguments = ["thumbnail", "--quiet", "--at", "2", "--out-dir", out.path, folder.appendingPathComponent("in").path]
        let killed = try ChildProcess.run(ToolRun.executable.path, arguments, standardOutput: FileHandle.nullDevice,
                                          standardError: FileHandle.nullDevice) { process in
            // Killed while an output is being written: a temporary is there, beside finished outputs.
            try ChildProcess.waitUntil("a thumbnail being written after the first three") {
                let names = (try? Self.files(in: out)) ?? []
                return names.filter { $0.hasSuffix(".png") }.count >= 3 && names.contains { $0.contains(".mediatool-tmp-") }
            }
            kill(process.processIdentifier, SIGKILL)
        }
        #expect(killed.wasSignalled && killed.status == SIGKILL, "the run ended before the kill")

        let finished = try Self.files(in: out).filter { !$0.hasPrefix(".") }
        #expect(!finished.isEmpty)
        for name in finished {
            let picture = try DecodedPNG(path: out.appendingPathComponent(name).path)
            #expect((picture.width, picture.height) == (128, 16), "\(name)")
        }
        let resumed = try ToolRun.run(["thumbnail", "--skip-existing"] + arguments.dropFirst())
        #expect(resumed.status == 0)
        let after = try Self.files(in: out)
        #expect(after.count == 40)
        #expect(after.allSatisfy { !$0.contains(".mediatool-tmp-") })
    }

    /// The inputs under way when the run is interrupted did not fail: their workers were ended
    /// with the run. They get no line and are not counted as failed (the sixth red team saw good
    /// videos reported as "the decoder crashed (SIGKILL); the file was refused", printed in the
    /// moment between the end's killing the workers and the process's exit: a race this test
    /// does not force, so it guards the outcome, not that moment).
    @Test(arguments: [1, 2])
    func ctrlCStopsCleanlyWithASummary(jobs: Int) throws {
        let folder = try Self.clips(60)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let run = try ChildProcess.run(ToolRun.executable.path,
                                       ["thumbnail", "--json", "--jobs", "\(jobs)", "--at", "2", "--out-dir", out.path, folder.appendingPathComponent("in").path]) { process in
            try ChildProcess.waitUntil("two thumbnails") { ((try? Self.files(in: out))?.count ?? 0) >= 2 }
            kill(process.processIdentifier, SIGINT)
        }
        let text = String(decoding: run.standardError, as: UTF8.self)
        #expect(run.status == 130)
        #expect(text.contains("mediatool: summary: ") && text.contains(", interrupted"))
        #expect(text.contains(" ok, 0 failed"), "\(text)")
        let lines = String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.contains(#""status":"ok""#) }, "\(lines.filter { !$0.contains(#""status":"ok""#) })")
        let left = try Self.files(in: out)
        #expect(left.count < 60)
        #expect(left.allSatisfy { !$0.contains(".mediatool-tmp-") })
    }
}

/// The same thumbnail and the same crop 1000 times in one process: resident memory stays within 10%
/// of what it was after the first 100.
@Suite struct SoakTests {
    /// Under AddressSanitizer freed memory waits in quarantine: resident size says nothing there.
    @Test(.disabled(if: ProcessInfo.processInfo.environment["MEDIATOOL_SANITIZED"] != nil))
    func memoryStaysFlat() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let soak = ToolRun.executable.deletingLastPathComponent().appendingPathComponent("MediaToolSoak").path
        let run = try ChildProcess.run(soak, [Fixture.path("video/quadrants-orientation6.mp4"), Fixture.path("pictures/orientation6.jpg"),
                                              folder.path, "1000"], deadline: 600)
        #expect(run.status == 0)
        let text = String(decoding: run.standardOutput, as: UTF8.self)
        let values = Dictionary(uniqueKeysWithValues: text.split(separator: "\n").compactMap { line -> (String, Int)? in
            let parts = line.split(separator: " ")
            return parts.count == 2 ? (String(parts[0]), Int(parts[1]) ?? -1) : nil
        })
        let warm = try #require(values["resident_kib_after_warm_up"])
        let end = try #require(values["resident_kib_at_end"])
        #expect(warm > 0)
        #expect(Double(end) <= Double(warm) * 1.1, "resident memory grew from \(warm) KiB to \(end) KiB")
    }
}
