import Foundation
import Testing
import TestSupport

/// What the HEIF container reader builds is bounded by the file, not by what
/// its boxes claim. An Exif item of 65535 extents, each the whole mdat again, took a 0.5 MB file
/// to 725 MB (the worker's limit, for a larger file); 40000 item properties, more than any
/// association can name, were kept (3.2 million reached 756 MiB). Decoys made from a fixture by
/// Scripts/heif_decoys.py.
@Suite struct HEIFContainerBoundTests {
    static let python = "/usr/bin/python3"
    static let time = "/usr/bin/time"

    static func decoy(_ mode: String, in folder: URL) throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/heif_decoys.py").path
        let path = folder.appendingPathComponent("\(mode).heic").path
        let made = try ChildProcess.run(Self.python, [script, mode, Fixture.path("heif/orientation6.heic"), path])
        try #require(made.status == 0, "\(String(decoding: made.standardError, as: UTF8.self))")
        return path
    }

    /// Read in this process (no worker's limit to hide it), the peak stays near a plain probe's.
    @Test(.enabled(if: try Requirement.tool(time), "GNU time is not installed (scripts/bootstrap test installs it)"))
    func extentsThatRepeatTheFileCostNoMoreThanIt() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let decoy = try Self.decoy("extents", in: folder)
        let run = try ChildProcess.run(Self.time, ["-f", "peak %M KB", ToolRun.executable.path, "probe", "--sandbox", "off", decoy])
        let said = String(decoding: run.standardError, as: UTF8.self)
        let peak = try #require(said.split(separator: "\n").last { $0.hasPrefix("peak ") }.flatMap { Int($0.split(separator: " ")[1]) })
        // A plain probe of the fixture takes about 25 MB here (40 under the sanitizers); the decoy took 725.
        #expect(peak < 200_000, "\(said)")
        #expect(String(decoding: run.standardOutput, as: UTF8.self).contains("\"input\":\"\(decoy)\""))
    }

    @Test func moreItemPropertiesThanAnyAssociationNamesAreRefused() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let decoy = try Self.decoy("properties", in: folder)
        let run = try ToolRun.run(["probe", decoy])
        #expect(run.status == 1)
        #expect(run.standardError.contains("\(decoy): more than 32767 item properties, more than any association can name"), "\(run.standardError)")
    }
}
