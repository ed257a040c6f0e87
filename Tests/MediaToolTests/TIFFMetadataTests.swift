import Foundation
import Testing
import TestSupport

/// A TIFF past 32 MiB gave `make`, `created` and `gps` null, as if the file had
/// none: a pipeline reading `gps: null` as "nothing to strip" would publish the place. Its
/// directories are now read where they lie, whatever the file's size, and equal ExifTool's reading.
@Suite struct TIFFMetadataTests {
    static let convert = "/usr/bin/convert"
    static let exiftool = "/usr/bin/exiftool"

    @Test(.enabled(if: try Requirement.tool(convert) && Requirement.tool(exiftool),
                   "ImageMagick and ExifTool are not installed (scripts/bootstrap test installs them)"))
    func aLargeTIFFsCaptureIsRead() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiff = folder.appendingPathComponent("scan.tif").path
        // 3500 x 3500 RGB, uncompressed: 36.75 MB, the decoy made here, never committed.
        let made = try ChildProcess.run(Self.convert, ["-size", "3500x3500", "xc:red", "-type", "TrueColor", "-depth", "8", "-compress", "none", tiff])
        try #require(made.status == 0, "\(String(decoding: made.standardError, as: UTF8.self))")
        let tagged = try ChildProcess.run(Self.exiftool, ["-q", "-overwrite_original", "-Make=TestCam", "-Model=Z9",
                                                          "-DateTimeOriginal=2024:05:01 12:34:56", "-GPSLatitude=33.5", "-GPSLatitudeRef=S",
                                                          "-GPSLongitude=70.25", "-GPSLongitudeRef=W", tiff])
        try #require(tagged.status == 0, "\(String(decoding: tagged.standardError, as: UTF8.self))")
        #expect(try FileManager.default.attributesOfItem(atPath: tiff)[.size] as? Int ?? 0 > 32 << 20)
        let run = try ToolRun.run(["probe", "--json", tiff])
        #expect(run.status == 0, "\(run.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: run.standardOutput) as? [String: Any])
        // ExifTool's reading of the same file is the reference.
        let exif = try ChildProcess.run(Self.exiftool, ["-n", "-s3", "-Make", "-Model", "-GPSLatitude", "-GPSLongitude", tiff])
        let said = String(decoding: exif.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(said == ["TestCam", "Z9", "-33.5", "-70.25"])
        #expect(report["make"] as? String == said[0] && report["model"] as? String == said[1])
        #expect(report["created"] as? String == "2024-05-01T12:34:56")
        let gps = try #require(report["gps"] as? [String: Any])
        #expect(gps["latitude"] as? Double == Double(said[2]) && gps["longitude"] as? Double == Double(said[3]))
    }
}
