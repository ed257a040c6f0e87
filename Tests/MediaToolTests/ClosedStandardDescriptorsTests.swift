import Foundation
import Testing
import TestSupport

/// A caller that closes standard error or input (`2>&-`, `<&-`) leaves their numbers free: the
/// next socket opened took descriptor 2, and an input's error line went into a worker's socket,
/// which ended it and failed the next input; `probe - <&-` read a worker's socket as its input.
@Suite struct ClosedStandardDescriptorsTests {
    static func shell(_ script: String, in folder: URL) throws -> ToolRun {
        let run = try ChildProcess.run("/bin/sh", ["-c", script, "sh", ToolRun.executable.path], directory: folder, deadline: 60)
        return ToolRun(status: run.status, standardOutput: run.standardOutput, standardError: String(decoding: run.standardError, as: UTF8.self))
    }

    @Test func aClosedStandardErrorCostsNoOtherInput() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("junk".utf8).write(to: folder.appendingPathComponent("junk.jpg"))
        try Fixture.copy("video/counter.mp4", to: folder.appendingPathComponent("clip.mp4"))
        let run = try Self.shell("\"$1\" thumbnail -j 1 --json --out-dir out junk.jpg clip.mp4 2>&-", in: folder)
        #expect(run.status == 1)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.contains { $0.contains("\"input\":\"junk.jpg\"") && $0.contains("\"status\":\"failed\"") })
        #expect(lines.contains { $0.contains("\"input\":\"clip.mp4\"") && $0.contains("\"status\":\"ok\"") }, "\(lines)")
    }

    @Test(arguments: ["on", "off"])
    func aClosedStandardInputIsSaidAtOnce(sandbox: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.shell("\"$1\" probe --sandbox \(sandbox) --timeout 30 - <&-", in: folder)
        #expect(run.status == 1)
        #expect(run.output.contains("\"error\":\"standard input is closed: Bad file descriptor\""), "\(run.output)")
    }
}
