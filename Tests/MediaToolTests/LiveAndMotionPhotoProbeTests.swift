import Foundation
import Testing
import TestSupport

/// probe says what pairs a Live Photo's still and video, and where a Motion Photo's video lies
/// (issue 56), each against what a reference reads: exiftool the maker note, FFmpeg the MOV's key
/// and the appended MP4.
@Suite struct LiveAndMotionPhotoProbeTests {
    static let identifier = "6E1B7A4C-8A2F-4D2B-9C1E-0F3A5B7C9D1E"

    static var referencesInstalled: Bool {
        get throws { try StripTests.referencesInstalled && Requirement.tool("/usr/bin/ffprobe") }
    }

    /// A TIFF-headed EXIF block whose Exif directory holds an Apple maker note with tag 0x0011.
    static func appleExif(contentIdentifier: String) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value >> 16) + u16(value & 0xFFFF) }
        let text = Array(contentIdentifier.utf8) + [0]
        // The note: signature, version, byte order, one entry, no next directory, the text at 32.
        let note = Array("Apple iOS\0".utf8) + [0, 1] + Array("MM".utf8) + u16(1) + u16(0x0011) + u16(2) + u32(text.count) + u32(32)
            + u32(0) + text
        // IFD0 at 8 (one entry: the Exif pointer), the Exif directory at 26 (one entry), the note at 44.
        let ifd0 = u16(1) + u16(0x8769) + u16(4) + u32(1) + u32(26) + u32(0)
        let exif = u16(1) + u16(0x927C) + u16(7) + u32(note.count) + u32(44) + u32(0)
        return Array("MM".utf8) + [0, 42] + u32(8) + ifd0 + exif + note
    }

    /// A Live Photo's two files in `folder`: the still (an APP1 Exif segment with Apple's maker
    /// note, read back by exiftool) and the video (the key Apple writes, by FFmpeg's mov muxer).
    static func livePhoto(in folder: URL) throws -> (still: String, video: String) {
        var jpeg = [UInt8](try Fixture.data("pictures/gray.jpg"))
        let exif = Array("Exif\0\0".utf8) + Self.appleExif(contentIdentifier: Self.identifier)
        jpeg.insert(contentsOf: [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif, at: 2)
        let still = folder.appendingPathComponent("IMG_0001.JPG").path
        try Data(jpeg).write(to: URL(fileURLWithPath: still))
        let read = try ChildProcess.run(StripTests.exiftool, ["-s", "-s", "-s", "-Apple:MediaGroupUUID", still])
        try #require(String(decoding: read.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == Self.identifier)
        let video = folder.appendingPathComponent("IMG_0001.MOV").path
        let made = try ChildProcess.run("/usr/bin/ffmpeg", ["-nostdin", "-v", "error", "-i", Fixture.path("video/counter.mov"), "-c", "copy",
                                                           "-movflags", "use_metadata_tags",
                                                           "-metadata", "com.apple.quicktime.content.identifier=\(Self.identifier)", video])
        try #require(made.status == 0)
        return (still, video)
    }

    @Test(.enabled(if: try referencesInstalled))
    func aLivePhotosStillAndVideoSayTheSameContentIdentifier() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (still, video) = try Self.livePhoto(in: folder)
        let (run, lines) = try ProbeTests.probe([still, video])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(lines[still]?["content_identifier"] as? String == Self.identifier)
        #expect(lines[video]?["content_identifier"] as? String == Self.identifier)
        // And a photo that is no Live Photo's says null.
        let (_, plain) = try ProbeTests.probe([Fixture.path("pictures/camera.jpg")])
        #expect(plain[Fixture.path("pictures/camera.jpg")]?["content_identifier"] is NSNull)
    }

    /// A JPEG's, and a HEIC's (its XMP an item of the container).
    @Test(.enabled(if: try referencesInstalled), arguments: ["pictures/camera.jpg", "heif/orientation6.heic"])
    func aMotionPhotoSaysWhereItsVideoLies(fixture: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try Data(contentsOf: URL(fileURLWithPath: Fixture.path("video/counter.mp4")))
        let fileExtension = URL(fileURLWithPath: fixture).pathExtension
        let still = try StripTests.located(fixture, as: "still.\(fileExtension)", in: folder,
                                           tags: ["-XMP-GCamera:MicroVideo=1", "-XMP-GCamera:MicroVideoOffset=\(video.count)"])
        let stillBytes = try Data(contentsOf: URL(fileURLWithPath: still))
        let motion = folder.appendingPathComponent("PXL_20240501_MP.\(fileExtension)").path
        try (stillBytes + video).write(to: URL(fileURLWithPath: motion))
        let (run, lines) = try ProbeTests.probe([motion, still])
        #expect(run.status == 0, "\(run.standardError)")
        let range = try #require(lines[motion]?["motion_photo"] as? [String: Any])
        #expect(range["offset"] as? Int == stillBytes.count && range["length"] as? Int == video.count)
        // What lies there is the MP4, as FFmpeg reads it.
        let tail = folder.appendingPathComponent("tail.mp4")
        try (stillBytes + video).suffix(from: stillBytes.count).write(to: tail)
        let probe = try ChildProcess.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", tail.path])
        #expect(String(decoding: probe.standardOutput, as: UTF8.self).contains("h264"))
        // The still alone claims a video its file does not hold: none is said, with a warning.
        #expect(lines[still]?["motion_photo"] is NSNull)
        #expect(run.errorLines.contains { $0.contains(still) && $0.contains("no MP4 starts there") }, "\(run.standardError)")
    }

    /// ingest given both files links them: each manifest says its role and names the other's, so
    /// that the MOV is shown as the still's motion, not as an upload of its own; a photo of no
    /// Live Photo gets no link.
    @Test(.enabled(if: try referencesInstalled))
    func ingestLinksALivePhotosStillAndVideo() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let uploads = folder.appendingPathComponent("uploads")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        _ = try Self.livePhoto(in: uploads)
        try FileManager.default.copyItem(atPath: Fixture.path("pictures/camera.jpg"), toPath: uploads.appendingPathComponent("other.jpg").path)
        let out = folder.appendingPathComponent("site")
        let recipe = folder.appendingPathComponent("recipe.json")
        try Data(#"{"renditions": [{"name": "small", "size": 32}], "web_video": false}"#.utf8).write(to: recipe)
        let run = try ToolRun.run(["ingest", "--recipe", recipe.path, "--out-dir", out.path, uploads.path])
        #expect(run.status == 0, "\(run.standardError)")
        func manifest(_ name: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent(name))) as? [String: Any])
        }
        let still = try #require(try manifest("IMG_0001.JPG.json")["live_photo"] as? [String: Any])
        let motion = try #require(try manifest("IMG_0001.MOV.json")["live_photo"] as? [String: Any])
        #expect(still["role"] as? String == "still" && still["manifest"] as? String == "IMG_0001.MOV.json")
        #expect(motion["role"] as? String == "motion" && motion["manifest"] as? String == "IMG_0001.JPG.json")
        #expect(still["content_identifier"] as? String == Self.identifier)
        #expect(try manifest("other.jpg.json")["live_photo"] == nil)
    }

    /// ingest writes a Motion Photo's video as a file of its own, stripped as the original is
    /// (its position gone, its packets the same), listed in the manifest.
    @Test(.enabled(if: try referencesInstalled))
    func ingestWritesAMotionPhotosVideoAsItsOwnFile() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try StripTests.located("video/counter.mp4", as: "motion.mp4", in: folder, tags: StripTests.videoTags)
        let videoBytes = try Data(contentsOf: URL(fileURLWithPath: video))
        let still = try StripTests.located("pictures/camera.jpg", as: "still.jpg", in: folder,
                                           tags: ["-XMP-GCamera:MicroVideo=1", "-XMP-GCamera:MicroVideoOffset=\(videoBytes.count)"])
        let uploads = folder.appendingPathComponent("uploads")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        let motion = uploads.appendingPathComponent("PXL_MP.jpg")
        try (try Data(contentsOf: URL(fileURLWithPath: still)) + videoBytes).write(to: motion)
        let out = folder.appendingPathComponent("site")
        let recipe = folder.appendingPathComponent("recipe.json")
        try Data(#"{"renditions": [{"name": "small", "size": 32}]}"#.utf8).write(to: recipe)
        let run = try ToolRun.run(["ingest", "--recipe", recipe.path, "--out-dir", out.path, motion.path])
        #expect(run.status == 0, "\(run.standardError)")
        let written = out.appendingPathComponent("PXL_MP.jpg.motion.mp4").path
        #expect(StripTests.revealing(try StripTests.tags(of: written)).isEmpty)
        #expect(try StripTests.content(of: written, in: folder) == StripTests.content(of: video, in: folder))
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("PXL_MP.jpg.json"))) as? [String: Any])
        let entry = try #require((manifest["renditions"] as? [[String: Any]])?.first { $0["name"] as? String == "motion_video" })
        #expect(entry["file"] as? String == "PXL_MP.jpg.motion.mp4" && entry["bytes"] as? Int == videoBytes.count)
        #expect((entry["removed"] as? [String])?.contains { $0.hasPrefix("QuickTime:") } == true)
        // Its preview is the photo's (a hover shows the motion), of as many frames as Pillow reads.
        let preview = try #require((manifest["renditions"] as? [[String: Any]])?.first { $0["name"] as? String == "preview" })
        let frames = try #require(preview["frames"] as? Int)
        let script = "import sys; from PIL import Image; print(Image.open(sys.argv[1]).n_frames)"
        let read = try ChildProcess.run(StripTests.python, ["-c", script, out.appendingPathComponent("PXL_MP.jpg.preview.webp").path])
        #expect(frames > 1 && String(decoding: read.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "\(frames)")
    }

    /// An XMP whose offset points into the picture, at an `ftyp` box hidden in a comment whose
    /// next box runs over the picture's EXIF: no video is said and none written, else the "video"
    /// would carry the still's position in bytes (the twelfth red team's).
    @Test(.enabled(if: try referencesInstalled))
    func aMotionPhotoWhoseXMPPointsIntoThePictureHasNoVideo() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var jpeg = [UInt8](try Fixture.data("pictures/camera.jpg"))
        let fakeBox: [UInt8] = [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0]
        jpeg.insert(contentsOf: [0xFF, 0xFE, 0, UInt8(fakeBox.count + 2)] + fakeBox, at: 2)
        let still = folder.appendingPathComponent("still.jpg").path
        try Data(jpeg).write(to: URL(fileURLWithPath: still))
        let tagged = try ChildProcess.run(StripTests.exiftool, ["-q", "-q", "-overwrite_original", "-GPSLatitude=48.85", "-GPSLatitudeRef=N",
                                                               "-GPSLongitude=2.29", "-GPSLongitudeRef=E", "-XMP-GCamera:MicroVideo=1",
                                                               "-XMP-GCamera:MicroVideoOffset=1111", still])
        try #require(tagged.status == 0)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: still)) + Data(contentsOf: URL(fileURLWithPath: Fixture.path("video/counter.mp4")))
        let fake = try #require(bytes.range(of: Data("ftypisom".utf8))).lowerBound - 4
        let offset = String(bytes.count - fake)
        try #require(offset.count == 4)
        let placeholder = try #require(bytes.range(of: Data("1111".utf8)))
        bytes.replaceSubrange(placeholder, with: Data(offset.utf8))
        let motion = folder.appendingPathComponent("PXL_FAKE.MP.jpg").path
        try bytes.write(to: URL(fileURLWithPath: motion))

        let (run, lines) = try ProbeTests.probe([motion])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(lines[motion]?["motion_photo"] is NSNull)
        #expect(run.errorLines.contains { $0.contains("no MP4 starts there") })
        let out = folder.appendingPathComponent("site")
        let ingested = try ToolRun.run(["ingest", "--out-dir", out.path, motion])
        #expect(ingested.status == 0, "\(ingested.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("PXL_FAKE.MP.jpg.motion.mp4").path))
    }
}
