import Foundation
import Testing
import TestSupport

/// Outputs were renamed into place without an fsync, so that after a power
/// loss one could be there and empty; and a SIGPIPE (`| head`) left temporaries behind.
@Suite struct DurableOutputTests {
    static let strace = "/usr/bin/strace"

    /// For a child traced by strace: LeakSanitizer cannot run under ptrace and ends the process
    /// (exit 6) in the sanitized suite, so it is left out there; AddressSanitizer's checks stay.
    static var tracedEnvironment: [String: String] {
        guard let options = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] else { return [:] }
        return ["ASAN_OPTIONS": options + ":detect_leaks=0"]
    }

    /// The system calls on the output's path, in order, as strace saw them.
    static func traced(_ arguments: [String], in folder: URL) throws -> [String] {
        let log = folder.appendingPathComponent("trace.log").path
        let run = try ChildProcess.run(Self.strace, ["-f", "-qq", "-o", log, "-e", "trace=fsync,fdatasync,rename,renameat,renameat2,link,linkat,openat",
                                                     "-e", "signal=none", ToolRun.executable.path] + arguments, directory: folder,
                                       environment: Self.tracedEnvironment)
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        return try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// The file's data is synced before it takes its name, and its folder after.
    @Test(.enabled(if: try Requirement.tool(strace), "strace is not installed (scripts/bootstrap test installs it)"),
          arguments: ["on", "off"])
    func theDataThenTheNameReachTheDisk(sandbox: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = try Self.traced(["crop", "--sandbox", sandbox, "--rect", "0,0,2,2", Fixture.path("pictures/rgb8.png"), "-o", "c.png"], in: folder)
        // openat(..., ".mediatool-tmp-...", O_WRONLY|O_CREAT...) = FD; while another thread makes a
        // call (a worker started), strace ends the line "<unfinished ...>" and gives the result
        // on a later line of the same process, "<... openat resumed>) = FD".
        let created = try #require(lines.firstIndex { $0.contains(".mediatool-tmp-") && $0.contains("O_CREAT") })
        let process = lines[created].prefix { $0 != " " }
        let result = lines[created].contains("<unfinished ...>")
            ? try #require(lines[created...].first { $0.hasPrefix(process + " ") && $0.contains("<... openat resumed>") }) : lines[created]
        let temporary = try #require(result.split(separator: "=").last?.trimmingCharacters(in: .whitespaces))
        let named = try #require(lines.firstIndex { ($0.contains("linkat(") || $0.contains("rename")) && $0.contains("\"c.png\"") })
        let dataSynced = lines[created..<named].contains { $0.contains("fsync(\(temporary))") }
        #expect(dataSynced, "\(lines[created...].joined(separator: "\n"))")
        let folderSynced = lines[named...].contains { $0.contains("fsync(") }
        #expect(folderSynced, "\(lines[named...].joined(separator: "\n"))")
        #expect(try Data(contentsOf: folder.appendingPathComponent("c.png")).count > 0)
    }

    /// `--no-fsync` (scratch output): no sync at all, and the output all the same.
    @Test(.enabled(if: try Requirement.tool(strace), "strace is not installed (scripts/bootstrap test installs it)"))
    func scratchOutputIsNotSynced() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = try Self.traced(["crop", "--no-fsync", "--rect", "0,0,2,2", Fixture.path("pictures/rgb8.png"), "-o", "c.png"], in: folder)
        #expect(!lines.contains { $0.contains("fsync(") }, "\(lines.joined(separator: "\n"))")
        #expect(try Data(contentsOf: folder.appendingPathComponent("c.png")).count > 0)
    }

    /// `mediatool thumbnail --json ... | head -c 1`: the run ends as SIGPIPE ends it (141), and no
    /// temporary of the outputs under way is left.
    @Test(arguments: ["on", "off"])
    func aReaderThatGoesAwayLeavesNoTemporary(sandbox: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for index in 0..<40 {
            try FileManager.default.copyItem(atPath: Fixture.path("pictures/orientation6.jpg"), toPath: inputs.appendingPathComponent("p\(index).jpg").path)
        }
        let command = "'\(ToolRun.executable.path)' thumbnail --sandbox \(sandbox) --json --sizes 64,128,256,512 --enlarge --out-dir out in | head -c 1 >/dev/null; echo \"${PIPESTATUS[0]}\""
        let run = try ChildProcess.run("/bin/bash", ["-c", command], directory: folder)
        let said = String(decoding: run.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        // 141 when a write met the closed pipe; 0 if every line fitted the pipe before head closed it.
        #expect(said == "141" || said == "0", "\(said)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path)) ?? []
        #expect(!left.contains { $0.hasPrefix(".mediatool-tmp-") }, "\(left)")
        #expect(String(decoding: run.standardError, as: UTF8.self).isEmpty, "\(String(decoding: run.standardError, as: UTF8.self))")
    }

    /// `dump-doubles big | head -1` ends at once, 141 and silent, as it did when SIGPIPE killed it.
    @Test func aDumpIntoAClosedPipeEndsQuietly() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(repeating: 0x3F, count: 800_000).write(to: folder.appendingPathComponent("d.bin"))
        let command = "'\(ToolRun.executable.path)' dump-doubles d.bin | head -1 >/dev/null; echo \"${PIPESTATUS[0]}\""
        let run = try ChildProcess.run("/bin/bash", ["-c", command], directory: folder)
        #expect(String(decoding: run.standardOutput, as: UTF8.self) == "141\n")
        #expect(run.standardError.isEmpty, "\(String(decoding: run.standardError, as: UTF8.self))")
    }
}
