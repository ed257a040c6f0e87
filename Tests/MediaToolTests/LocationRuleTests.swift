import Foundation
import Testing
import TestSupport

/// One location rule (issue 56): no output of any subcommand carries where a photo or video was
/// taken unless `--location keep`; probe reports it unless `--location remove`. exiftool reads the
/// outputs.
@Suite struct LocationRuleTests {
    static var referencesInstalled: Bool {
        get throws { try StripTests.referencesInstalled }
    }

    /// Every picture and video a subcommand writes from a located photo and video, by default.
    @Test(.enabled(if: try referencesInstalled))
    func noOutputCarriesThePositionUnlessAsked() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try StripTests.located("pictures/camera.jpg", as: "photo.jpg", in: folder, tags: StripTests.stillTags)
        let clip = try StripTests.located("video/counter.mp4", as: "clip.mp4", in: folder, tags: StripTests.videoTags)
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let runs: [[String]] = [
            ["crop", "--rect", "0,0,20,20", photo, "-o", out.appendingPathComponent("crop.jpg").path],
            ["crop", "--rect", "5,0,11,16", "--lossless", photo, "-o", out.appendingPathComponent("lossless.jpg").path],
            ["crop", "--rect", "0,0,20,20", photo, "-o", out.appendingPathComponent("crop.png").path],
            ["crop", "--rect", "0,0,20,20", photo, "-o", out.appendingPathComponent("crop.webp").path],
            ["thumbnail", "--size", "32", photo, "-o", out.appendingPathComponent("thumb.jpg").path],
            ["thumbnail", "--size", "32", clip, "-o", out.appendingPathComponent("poster.jpg").path],
            ["transcode", clip, "-o", out.appendingPathComponent("web.mp4").path],
            ["ingest", "--out-dir", out.appendingPathComponent("ingest").path, photo, clip],
        ]
        for arguments in runs {
            let run = try ToolRun.run(arguments)
            #expect(run.status == 0, "\(arguments[0]): \(run.standardError)")
        }
        let written = FileManager.default.enumerator(atPath: out.path)!.compactMap { $0 as? String }.filter { !$0.hasSuffix("/") }
        #expect(written.count >= 10, "\(written)")
        for name in written where !FileManager.default.isDirectory(out.appendingPathComponent(name).path) {
            let path = out.appendingPathComponent(name).path
            let revealing = StripTests.revealing(try StripTests.tags(of: path))
            #expect(revealing.isEmpty, "\(name): \(revealing)")
            #expect(!(try String(decoding: Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)).contains("48.85"), "\(name)")
        }
    }

    /// `--location keep`, the one flag: the crop keeps EXIF's and XMP's position, the manifest its `gps`.
    @Test(.enabled(if: try referencesInstalled))
    func locationKeepKeepsIt() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try StripTests.located("pictures/camera.jpg", as: "photo.jpg", in: folder, tags: StripTests.stillTags)
        let crop = folder.appendingPathComponent("crop.jpg").path
        #expect(try ToolRun.run(["crop", "--location", "keep", "--rect", "0,0,20,20", photo, "-o", crop]).status == 0)
        let tags = try StripTests.tags(of: crop)
        #expect(tags["GPS:GPSLatitude"] != nil && tags["XMP-photoshop:City"] == "Paris")
        let ingest = folder.appendingPathComponent("ingest")
        #expect(try ToolRun.run(["ingest", "--location", "keep", "--out-dir", ingest.path, photo]).status == 0)
        let manifest = try String(contentsOf: ingest.appendingPathComponent("photo.jpg.json"), encoding: .utf8)
        #expect(manifest.contains("\"gps\""))
    }

    /// A recipe's `"original": true`: the upload itself beside its renditions, stripped as strip
    /// strips (its pictures the same), the manifest saying what went; with --location keep, the
    /// position stays in it too.
    @Test(.enabled(if: try referencesInstalled))
    func ingestWritesTheStrippedOriginal() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try StripTests.located("pictures/camera.jpg", as: "photo.jpg", in: folder, tags: StripTests.stillTags)
        let recipe = folder.appendingPathComponent("recipe.json")
        try Data(#"{"renditions": [{"name": "small", "size": 32}], "storyboard": false, "preview": false, "original": true}"#.utf8).write(to: recipe)
        for (flags, keeps) in [([String](), false), (["--location", "keep"], true)] {
            let out = folder.appendingPathComponent(keeps ? "kept" : "out")
            let run = try ToolRun.run(["ingest", "--recipe", recipe.path, "--out-dir", out.path] + flags + [photo])
            #expect(run.status == 0, "\(run.standardError)")
            let original = out.appendingPathComponent("photo.stripped.jpg").path
            let tags = try StripTests.tags(of: original)
            #expect((tags["GPS:GPSLatitude"] != nil) == keeps)
            #expect(tags["ExifIFD:SerialNumber"] == nil && tags["ExifIFD:OwnerName"] == nil)
            #expect(try StripTests.content(of: original, in: folder) == StripTests.content(of: photo, in: folder))
            let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("photo.jpg.json"))) as? [String: Any])
            let entries = try #require(manifest["renditions"] as? [[String: Any]])
            let entry = try #require(entries.first { $0["name"] as? String == "original" })
            #expect(entry["file"] as? String == "photo.stripped.jpg" && entry["format"] as? String == "jpeg")
            let removed = try #require(entry["removed"] as? [String])
            #expect(removed.contains("EXIF:SerialNumber") && removed.contains("EXIF:GPS") != keeps)
            #expect(entry["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: original)[.size] as? Int))
        }
    }
}

extension FileManager {
    func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
