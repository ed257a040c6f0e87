import Foundation
import Testing
import TestSupport

/// Issue 24 item 8: options users rely on that no test checked, each able to fail.
@Suite struct OptionCoverageTests {
    /// --max-pixels N refuses a picture of N + 1 pixels (orientation1.png is 61x41, 2501), naming the
    /// limit, and takes one of N; --max-memory with a unit refuses a JPEG whose decoding needs more.
    @Test func cropLimitsAreTheOnesGiven() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = Fixture.path("pictures/orientation1.png")
        let under = try ToolRun.run(["crop", "--rect", "0,0,5,5", "--max-pixels", "2500", png, "-o", folder.appendingPathComponent("a.png").path])
        #expect(under.status == 1)
        #expect(under.errorLines == ["mediatool: \(png): 61x41 is 2501 pixels, over the limit of 2500 (--max-pixels)"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("a.png").path))
        let exact = try ToolRun.run(["crop", "--rect", "0,0,5,5", "--max-pixels", "2501", png, "-o", folder.appendingPathComponent("b.png").path])
        #expect(exact.status == 0 && exact.errorLines == [])
        #expect(try DecodedPNG(path: folder.appendingPathComponent("b.png").path).bytes == Fixture.uprightRect(x: 0, y: 0, width: 5, height: 5))

        let jpeg = Fixture.path("pictures/hp-srgb.jpg")
        let small = try ToolRun.run(["crop", "--rect", "0,0,5,5", "--max-memory", "3K", jpeg, "-o", folder.appendingPathComponent("c.png").path])
        #expect(small.status == 1)
        #expect(small.errorLines == ["mediatool: \(jpeg): cropping from this 61x41 picture needs 12 KiB of memory, over the limit of 3 KiB (--max-memory)"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("c.png").path))
        let enough = try ToolRun.run(["crop", "--rect", "0,0,5,5", "--max-memory", "1M", jpeg, "-o", folder.appendingPathComponent("d.png").path])
        #expect(enough.status == 0 && enough.errorLines == [])
    }

    static let exiftool = "/usr/bin/exiftool"

    /// The metadata groups ExifTool finds in a file.
    static func groups(_ path: String) throws -> Set<String> {
        let run = try ChildProcess.run(exiftool, ["-s", "-G1", "-a", path])
        #expect(run.status == 0)
        return Set(String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").compactMap { line in
            line.split(separator: " ").first.map { String($0.dropFirst().dropLast()) }
        })
    }

    /// --strip all in PNG and WebP output, as ExifTool reads the files: no EXIF, GPS or XMP left,
    /// the colour profile kept; without it, all of them are there (so the check can fail).
    @Test(.enabled(if: try Requirement.tool(exiftool), "ExifTool is not installed (scripts/bootstrap test installs it)"),
          arguments: ["png", "webp"])
    func stripAllLeavesOnlyTheColourProfile(format: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dropped: Set<String> = ["IFD0", "ExifIFD", "GPS", "XMP-dc", "XMP-tiff"]
        var found: Set<String> = []
        for source in ["camera.jpg", "xmp-icc.jpg"] {
            let kept = folder.appendingPathComponent("\(source).kept.\(format)").path
            let stripped = folder.appendingPathComponent("\(source).stripped.\(format)").path
            let plain = try ToolRun.run(["crop", "--rect", "2,3,20,30", Fixture.path("pictures/\(source)"), "-o", kept])
            let strip = try ToolRun.run(["crop", "--rect", "2,3,20,30", "--strip", "all", Fixture.path("pictures/\(source)"), "-o", stripped])
            #expect(plain.status == 0 && strip.status == 0, "\(plain.standardError)\(strip.standardError)")
            found.formUnion(try Self.groups(kept).intersection(dropped))
            let left = try Self.groups(stripped)
            #expect(left.intersection(dropped).isEmpty, "\(source) to \(format): \(left.intersection(dropped)) left")
            if source == "xmp-icc.jpg" { #expect(left.contains("ICC_Profile"), "\(source) to \(format): the colour profile is gone") }
        }
        #expect(found == dropped)
    }

    /// A stream is spooled to a temporary file that has no name from the start: while the run reads
    /// standard input (a PNG and 2 MB after its end, more than the first MiB that is recognised
    /// before the copy starts), TMPDIR holds nothing though the process has the copy open; after
    /// it, nothing either.
    @Test func theStandardInputSpoolHasNoName() throws {
        let temporary = try Fixture.scratchFolder()
        let folder = try Fixture.scratchFolder()
        defer {
            try? FileManager.default.removeItem(at: temporary)
            try? FileManager.default.removeItem(at: folder)
        }
        let stream = try Fixture.data("pictures/orientation1.png") + Data(count: 2_000_000)
        let input = Pipe()
        let output = folder.appendingPathComponent("c.png").path
        let run = try ChildProcess.run(ToolRun.executable.path, ["crop", "--rect", "0,0,5,5", "-", "-o", output],
                                       standardInput: input.fileHandleForReading, environment: ["TMPDIR": temporary.path]) { process in
            try input.fileHandleForWriting.write(contentsOf: stream.prefix(1_500_000))
            try ChildProcess.waitUntil("the spool to be open") {
                let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd")) ?? []
                return fds.contains { fd in
                    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.processIdentifier)/fd/\(fd)")) ?? ""
                    return target.hasPrefix(temporary.path + "/mediatool-input-")
                }
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
            try input.fileHandleForWriting.write(contentsOf: stream.dropFirst(1_500_000))
            try input.fileHandleForWriting.close()
        }
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        #expect(try DecodedPNG(path: output).bytes == Fixture.uprightRect(x: 0, y: 0, width: 5, height: 5))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
    }

    /// The cores: a cgroup quota of 1.5 CPUs, or of a hair over 1, is rounded up to 2 (when the
    /// affinity allows 2); rounded down, it would say 1.
    @Test(.enabled(if: try Requirement.met(ProcessInfo.processInfo.activeProcessorCount >= 2, "rounding up to 2 cores needs 2 cores")),
          arguments: ["150000 100000", "100001 100000", "200000 100000"])
    func aQuotaIsRoundedUp(quota: String) throws {
        let scratch = try ScratchOutput("cpu.max")
        try Data((quota + "\n").utf8).write(to: URL(fileURLWithPath: scratch.path))
        let run = try ToolRun.run(["--version"], launcher: ["taskset", "-c", "0,1"], environment: ["MEDIATOOL_CGROUP_CPU_MAX": scratch.path])
        #expect(run.status == 0)
        #expect(run.output.split(separator: "\n").last.map(String.init) == "cores 2")
    }
}
