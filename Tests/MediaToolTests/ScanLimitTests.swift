import Foundation
import Testing
import TestSupport

/// A progressive JPEG of thousands of repeated scans burned the CPU for most of
/// a minute before failing (20000 scans ran until --timeout), and 496 scans of a 9900x9900 grey
/// picture held a decode for 30 s: each scan passes over every block. A scan that refines what
/// was refined already (libjpeg's bogus progression) is refused as it starts; past 500 scans, as
/// TurboJPEG and djpeg -maxscans stop, or past 80 passes over each block, a JPEG is refused as
/// soon as libjpeg reads the scan that goes past.
@Suite struct ScanLimitTests {
    /// The progressive fixture with its last scan repeated `extra` times more.
    static func repeatedScans(_ extra: Int, in folder: URL, afterFirstSegment inserted: [UInt8] = []) throws -> String {
        var bytes = [UInt8](try Fixture.data("pictures/progressive6.jpg"))
        let firstEnd = 4 + (Int(bytes[4]) << 8 | Int(bytes[5]))
        bytes.insert(contentsOf: inserted, at: firstEnd)
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

    static let bogus = "its scans refine the same coefficients again (a bogus progression): refused"

    @Test(arguments: [
        (["thumbnail", "--size", "16"], bogus),
        (["crop", "--rect", "0,0,8,8"], bogus),
        // The lossless crop (TurboJPEG, no monitor of ours) checks the scans from the markers first:
        // it decoded every repeated scan (46 s for 400 of a 16000x16000 picture).
        (["crop", "--lossless", "--rect", "5,0,8,8"], bogus),
        (["probe", "--deep"], bogus),
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

    /// What libjpeg reads between segments without a length (a byte of junk, skipped with a
    /// warning TurboJPEG keeps alone; FF 00, discarded; a restart marker or TEM) does not end the
    /// lossless crop's walk of the markers early: its scans are checked still.
    @Test(arguments: [[0x00], [0xFF, 0x00], [0xFF, 0xD0], [0xFF, 0x01]] as [[UInt8]])
    func whatLibjpegSkipsBetweenSegmentsHidesNoScanFromTheLosslessCrop(inserted: [UInt8]) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let decoy = try Self.repeatedScans(3000, in: folder, afterFirstSegment: inserted)
        let run = try ToolRun.run(["crop", "--lossless", "--rect", "5,0,8,8", decoy, "-o", folder.appendingPathComponent("out.jpg").path],
                                  deadline: 60)
        #expect(run.status == 1)
        #expect(run.standardError.contains("\(decoy): \(Self.bogus)"), "\(run.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["scans.jpg"])
    }

    /// A valid progression (each coefficient's bits once) that passes over each block 98 times:
    /// refused at its 81st scan, whatever reads it.
    @Test(arguments: [["thumbnail", "--size", "16"], ["crop", "--rect", "0,0,8,8"], ["crop", "--lossless", "--rect", "0,0,8,8"], ["probe", "--deep"]])
    func scansPassingOverEachBlockTooOftenAreRefused(command: [String]) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let decoy = folder.appendingPathComponent("passes.jpg").path
        try FileManager.default.copyItem(atPath: Fixture.path("pictures/many-passes-gray.jpg"), toPath: decoy)
        let outputs = command[0] == "probe" ? [] : ["-o", folder.appendingPathComponent("out.\(command[0] == "crop" ? "jpg" : "png")").path]
        let run = try ToolRun.run(command + [decoy] + outputs, deadline: 60)
        let message = "its 81 scans pass over each block more than 80 times, more than any encoder writes: refused"
        #expect(run.status == 1)
        #expect(run.standardError.contains("\(decoy): \(message)") || run.output.contains("\"error\":\"\(message)\""),
                "\(run.standardError)\(run.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["passes.jpg"])
    }

    /// What real encoders write decodes: libjpeg's progressive script, and textbook spectral
    /// selection (a scan for each coefficient, 64 passes over each block).
    @Test(arguments: ["pictures/progressive6.jpg", "pictures/spectral-gray.jpg"])
    func progressionsEncodersWriteDecode(fixture: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["thumbnail", Fixture.path(fixture), "-o", folder.appendingPathComponent("t.png").path])
        #expect(run.status == 0, "\(run.standardError)")
        // On the block grid of each as shown (the first is stored turned, orientation 6).
        let rect = fixture.hasSuffix("progressive6.jpg") ? "5,0,8,8" : "0,0,16,16"
        let crop = try ToolRun.run(["crop", "--lossless", "--rect", rect, Fixture.path(fixture), "-o", folder.appendingPathComponent("c.jpg").path])
        #expect(crop.status == 0, "\(crop.standardError)")
    }
}
