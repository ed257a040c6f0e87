import Foundation
import Testing
import TestSupport

/// An icon (ICO) is a picture of several sizes, each its own stream in FFmpeg: it was taken for a
/// video (`probe` said `kind: video`, `ingest` asked for "--to in seconds"), and `thumbnail` drew
/// its first entry, 16x16. It is a picture, shown by its largest entry.
@Suite struct IconTests {
    static let icon = Fixture.path("pictures/icon.ico")

    @Test func anIconIsProbedAsAPictureOfItsLargestEntry() throws {
        let run = try ToolRun.run(["probe", Self.icon])
        #expect(run.status == 0, "\(run.standardError)")
        let line = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(line["kind"] as? String == "picture")
        #expect(line["mime"] as? String == "image/vnd.microsoft.icon")
        #expect(line["width"] as? Int == 48 && line["height"] as? Int == 48, "\(line)")
    }

    /// The thumbnail is the 48x48 entry (blue), not the 16x16 one the file lists first (red).
    @Test func anIconsThumbnailIsItsLargestEntry() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("icon.png").path
        let run = try ToolRun.run(["thumbnail", Self.icon, "-o", output])
        #expect(run.status == 0, "\(run.standardError)")
        let picture = try DecodedPNG(path: output)
        #expect(picture.width == 48 && picture.height == 48)
        let middle = picture.pixel(x: 24, y: 24)
        #expect(middle[0] < 20 && middle[2] > 235, "\(middle)")
    }

    /// An icon of the fixture's 48x48 entry and a BMP entry whose header claims 4000x4000 in 104
    /// bytes: the BMP was taken for the picture (probe said 4000x4000, thumbnail failed). The
    /// largest entry its bytes can hold is the picture.
    @Test func anEntryClaimingMoreThanItsBytesHoldIsPassedOver() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icon = [UInt8](try Fixture.data("pictures/icon.ico"))
        func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        // The fixture's third entry (16 bytes at 6 + 32): its size and offset.
        let size = Int(icon[38 + 8]) | Int(icon[38 + 9]) << 8 | Int(icon[38 + 10]) << 16 | Int(icon[38 + 11]) << 24
        let offset = Int(icon[38 + 12]) | Int(icon[38 + 13]) << 8 | Int(icon[38 + 14]) << 16 | Int(icon[38 + 15]) << 24
        let png = Array(icon[offset..<(offset + size)])
        // BITMAPINFOHEADER: 4000 wide, 8000 high (an icon's height counts its mask), 32 bits, no pixels.
        let bmp = le(40, 4) + le(4000, 4) + le(8000, 4) + le(1, 2) + le(32, 2) + [UInt8](repeating: 0, count: 24) + [UInt8](repeating: 0, count: 64)
        var file = le(0, 2) + le(1, 2) + le(2, 2)
        file += [48, 48, 0, 0] + le(1, 2) + le(32, 2) + le(png.count, 4) + le(6 + 32, 4)
        file += [16, 16, 0, 0] + le(1, 2) + le(32, 2) + le(bmp.count, 4) + le(6 + 32 + png.count, 4)
        file += png + bmp
        let decoy = folder.appendingPathComponent("claims.ico").path
        try Data(file).write(to: URL(fileURLWithPath: decoy))
        let probe = try ToolRun.run(["probe", decoy])
        let line = try #require(try JSONSerialization.jsonObject(with: Data(probe.output.utf8)) as? [String: Any])
        #expect(line["width"] as? Int == 48 && line["height"] as? Int == 48, "\(line)")
        let run = try ToolRun.run(["thumbnail", decoy, "-o", folder.appendingPathComponent("t.png").path])
        #expect(run.status == 0, "\(run.standardError)")
    }

    @Test func anIconIsIngestedAsAPicture() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["ingest", "--json", "--out-dir", folder.path, Self.icon])
        #expect(run.status == 0, "\(run.standardError)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(manifest["kind"] as? String == "picture")
        #expect((manifest["renditions"] as? [[String: Any]])?.first?["width"] as? Int == 48)
    }
}
