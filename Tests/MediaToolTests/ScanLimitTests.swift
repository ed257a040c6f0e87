import Foundation
import Testing
import TestSupport

/// A progressive JPEG of thousands of repeated scans burned the CPU for most of
/// a minute before failing (20000 scans ran until --timeout). Past 500 scans, as TurboJPEG and
/// djpeg -maxscans stop, a JPEG is refused as soon as libjpeg reads the 501st.
@Suite struct ScanLimitTests {
    /// The progressive fixture with its last scan repeated `extra` times more.
    static func repeatedScans(_ extra: Int, in folder: URL) throws -> String {
        let bytes = [UInt8](try Fixture.data("pictures/progressive6.jpg"))
        // The last SOS marker (FF DA) starts the last scan, which runs to EOI (FF D9).
        let lastScan = try #require((0..<(bytes.count - 1)).last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        let scan = bytes[lastScan..<(bytes.count - 2)]
        var decoy = Array(bytes.dropLast(2))
        for _ in 0..<extra { decoy += scan }
        decoy += [0xFF, 0xD9]
        let path = folder.appendingPathComponent("scans.jpg").path
        try Data(decoy).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [
        (["thumbnail", "--size", "16"], "more than 500 scans, more than any encoder writes: refused"),
        (["crop", "--rect", "0,0,8,8"], "more than 500 scans, more than any encoder writes: refused"),
        (["crop", "--lossless", "--rect", "5,0,8,8"], "Progressive JPEG image has more than 500 scans"),
        (["probe", "--deep"], "more than 500 scans, more than any encoder writes: refused"),
    ])
    func thousandsOfScansAreRefused(command: [String], message: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let decoy = try Self.repeatedScans(3000, in: folder)
        let outputs = command[0] == "probe" ? [] : ["-o", folder.appendingPathComponent("out.\(command[0] == "crop" ? "jpg" : "png")").path]
        // A deadline far below what the decoy took before: it is refused at its 501st scan.
        let run = try ToolRun.run(command + [decoy] + outputs, deadline: 60)
        #expect(run.status == 1)
        #expect(run.standardError.contains("\(decoy): \(message)") || run.output.contains("\"error\":\"\(message)\""),
                "\(run.standardError)\(run.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["scans.jpg"])
    }

    @Test func theProgressiveFixtureStillDecodes() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["thumbnail", Fixture.path("pictures/progressive6.jpg"), "-o", folder.appendingPathComponent("t.png").path])
        #expect(run.status == 0, "\(run.standardError)")
    }
}
