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
