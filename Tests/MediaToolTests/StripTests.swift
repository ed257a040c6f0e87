import Foundation
import Testing
import TestSupport

/// `strip` (issue 56): exiftool, the reference, writes a position, serials and an owner into a
/// copy of a fixture of each format; after strip, exiftool finds none of them, the orientation and
/// date are still there, and the pictures (Pillow, heif-convert) and packets (FFmpeg) are the same.
@Suite struct StripTests {
    static let exiftool = "/usr/bin/exiftool"
    static let python = "/usr/bin/python3"
    static let heifConvert = "/usr/bin/heif-convert"
    static let ffmpeg = "/usr/bin/ffmpeg"

    static var referencesInstalled: Bool {
        get throws { try Requirement.tool(exiftool) && Requirement.tool(heifConvert) && Requirement.tool(ffmpeg) && Requirement.tool(python) }
    }

    /// What exiftool writes into a still: EXIF GPS, serials and owner, XMP and IPTC places.
    static let stillTags = ["-GPSLatitude=48.8566", "-GPSLatitudeRef=N", "-GPSLongitude=2.3522", "-GPSLongitudeRef=E",
                            "-SerialNumber=SN12345", "-LensSerialNumber=LS999", "-OwnerName=Alice Example", "-Artist=Bob Credit",
                            "-XMP:City=Paris", "-XMP:GPSLatitude=48.8566", "-XMP:GPSLongitude=2.3522", "-XMP:SerialNumber=SN12345",
                            "-DateTimeOriginal=2021:06:01 12:00:00"]
    /// What exiftool writes into a video: the three places QuickTime keeps a position, and XMP's.
    static let videoTags = ["-UserData:GPSCoordinates=48.8566 N, 2.3522 E", "-Keys:GPSCoordinates=48.8566 N, 2.3522 E",
                            "-ItemList:GPSCoordinates=48.8566 N, 2.3522 E", "-XMP:City=Paris"]

    /// A copy of `fixture` in `folder` with `tags` written by exiftool.
    static func located(_ fixture: String, as name: String, in folder: URL, tags: [String]) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: Fixture.path(fixture), toPath: path)
        let run = try ChildProcess.run(exiftool, ["-q", "-q", "-overwrite_original"] + tags + [path])
        try #require(run.status == 0, "exiftool: \(String(decoding: run.standardError, as: UTF8.self))")
        return path
    }

    /// Every tag exiftool finds, embedded ones included, as `group:name` → value.
    static func tags(of path: String) throws -> [String: String] {
        let run = try ChildProcess.run(exiftool, ["-j", "-a", "-G1", "-ee", "-s", path])
        let list = try #require(try JSONSerialization.jsonObject(with: run.standardOutput) as? [[String: Any]])
        return (list.first ?? [:]).mapValues { "\($0)" }
    }

    /// The tags that say where, which camera or whose.
    static func revealing(_ tags: [String: String]) -> [String] {
        tags.keys.filter { key in
            ["GPS", "Serial", "Owner", "City", "Country", "Location"].contains { key.contains($0) }
        }.sorted()
    }

    /// The pictures or packets as a reference decodes them: Pillow's pixels, heif-convert's PNG, FFmpeg's packet digests.
    static func content(of path: String, in folder: URL) throws -> Data {
        if path.hasSuffix(".heic") || path.hasSuffix(".avif") {
            let png = folder.appendingPathComponent(UUID().uuidString + ".png").path
            let run = try ChildProcess.run(heifConvert, [path, png])
            try #require(run.status == 0)
            return try content(of: png, in: folder)
        }
        if path.hasSuffix(".mp4") || path.hasSuffix(".mov") {
            let run = try ChildProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", path, "-map", "0", "-c", "copy", "-f", "framemd5", "-"])
            try #require(run.status == 0)
            return Data(String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }.joined().utf8)
        }
        let script = "import sys; from PIL import Image; sys.stdout.buffer.write(Image.open(sys.argv[1]).tobytes())"
        let run = try ChildProcess.run(python, ["-c", script, path])
        try #require(run.status == 0)
        return run.standardOutput
    }

    /// The lines that say why `name` failed (the summary's list of failed inputs left out).
    static func failureLines(_ run: ToolRun, naming name: String) -> [String] {
        run.errorLines.filter { $0.contains(name) && !$0.hasPrefix("mediatool: failed: ") }
    }

    static let formats: [(fixture: String, name: String, tags: [String])] = [
        ("pictures/camera.jpg", "photo.jpg", stillTags + ["-IPTC:City=Paris"]),
        ("pictures/gradient.png", "photo.png", stillTags),
        ("webp/orientation6.webp", "photo.webp", stillTags),
        ("heif/orientation6.heic", "photo.heic", stillTags),
        ("heif/orientation6.avif", "photo.avif", stillTags),
        ("tiff/orientation6.tif", "photo.tif", stillTags + ["-IPTC:City=Paris"]),
        ("video/counter.mp4", "clip.mp4", videoTags),
        ("video/counter.mov", "clip.mov", videoTags),
    ]

    @Test(.enabled(if: try referencesInstalled), arguments: formats.map(\.name))
    func noPositionSerialOrOwnerIsLeftAndThePicturesAndSamplesAreTheSame(name: String) throws {
        let format = try #require(Self.formats.first { $0.name == name })
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.located(format.fixture, as: format.name, in: folder, tags: format.tags)
        let before = try Self.tags(of: input)
        try #require(Self.revealing(before).count >= 2, "exiftool wrote \(Self.revealing(before))")
        let output = folder.appendingPathComponent("stripped-" + format.name).path
        let run = try ToolRun.run(["strip", "--json", input, "-o", output])
        #expect(run.status == 0 && run.errorLines.isEmpty, "\(run.standardError)")
        let after = try Self.tags(of: output)
        #expect(Self.revealing(after).isEmpty, "left: \(Self.revealing(after))")
        // What is not where or whose stays: orientation, the date, the author's credit.
        for kept in ["IFD0:Orientation", "ExifIFD:DateTimeOriginal", "IFD0:Artist"] where before[kept] != nil {
            #expect(after[kept] == before[kept], "\(kept)")
        }
        #expect(try Self.content(of: output, in: folder) == Self.content(of: input, in: folder))
        // Same length: nothing moved.
        let sizes = try [input, output].map { try #require(try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) }
        // A JPEG's IPTC segment and a PNG's chunks may shrink; nothing else does.
        if !name.hasSuffix(".png") && !name.hasSuffix(".jpg") { #expect(sizes[0] == sizes[1]) }
        let line = try #require(try JSONSerialization.jsonObject(with: run.standardOutput) as? [String: Any])
        let removed = try #require(line["removed"] as? [String])
        #expect(removed.contains { $0.contains("GPS") || $0.contains("location") } && line["changed"] as? Bool == true)
    }

    /// --keep and --remove choose the groups: the position kept when asked, the author removed when asked.
    @Test(.enabled(if: try referencesInstalled))
    func keepAndRemoveChooseWhatGoes() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.located("pictures/camera.jpg", as: "photo.jpg", in: folder, tags: Self.stillTags)
        let output = folder.appendingPathComponent("out.jpg").path
        let run = try ToolRun.run(["strip", "--keep", "location", "--remove", "author", input, "-o", output])
        #expect(run.status == 0, "\(run.standardError)")
        let after = try Self.tags(of: output)
        #expect(after["GPS:GPSLatitude"] != nil && after["XMP-photoshop:City"] == "Paris")
        #expect(after["IFD0:Artist"] == nil && after["ExifIFD:SerialNumber"] == nil && after["ExifIFD:OwnerName"] == nil)
        let both = try ToolRun.run(["strip", "--keep", "author", "--remove", "author", input, "-o", output + "2"])
        #expect(both.status == 64 && both.errorLines.count == 1, "\(both.standardError)")
        // A group that is none: one line that names every group (the parser's list was cut off).
        let unknown = try ToolRun.run(["strip", "--keep", "places", input, "-o", output + "3"])
        #expect(unknown.status == 64 && unknown.errorLines.count == 1)
        #expect(unknown.errorLines.first?.contains("location, serial, owner, makernotes, author, thumbnail") == true, "\(unknown.standardError)")
        let crop = try ToolRun.run(["crop", "--strip", "gps", "--location", "keep", "--rect", "0,0,4,4", input, "-o", output + "4.png"])
        #expect(crop.status == 64 && crop.errorLines.count == 1)
    }

    /// --in-place: a new file takes the input's name, with its mode; a link is refused, not followed;
    /// -o with --in-place is a usage error.
    @Test(.enabled(if: try referencesInstalled))
    func inPlaceReplacesTheFileWithItsModeAndRefusesALink() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.located("pictures/camera.jpg", as: "photo.jpg", in: folder, tags: Self.stillTags)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: input)
        let inode = try FileManager.default.attributesOfItem(atPath: input)[.systemFileNumber] as? Int
        let target = try Self.located("pictures/camera.jpg", as: "target.jpg", in: folder, tags: Self.stillTags)
        let link = folder.appendingPathComponent("link.jpg").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let run = try ToolRun.run(["strip", "--in-place", input, link])
        #expect(run.status == 1, "\(run.standardError)")
        #expect(Self.failureLines(run, naming: "link.jpg").count == 1, "\(run.standardError)")
        #expect(Self.revealing(try Self.tags(of: input)).isEmpty)
        let attributes = try FileManager.default.attributesOfItem(atPath: input)
        #expect(attributes[.posixPermissions] as? Int == 0o640 && attributes[.systemFileNumber] as? Int != inode)
        // The link's target is as it was.
        #expect(!Self.revealing(try Self.tags(of: target)).isEmpty)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        let contents = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(contents == ["link.jpg", "photo.jpg", "target.jpg"])
        let mixed = try ToolRun.run(["strip", "--in-place", input, "-o", folder.appendingPathComponent("x.jpg").path])
        #expect(mixed.status == 64 && mixed.errorLines.count == 1)
    }

    /// A JPEG with its video appended, as Google's Motion Photos are: the video's position goes too,
    /// and its bytes stay where the XMP's offset says.
    @Test(.enabled(if: try referencesInstalled))
    func aMotionPhotosVideoLosesItsPositionToo() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try Self.located("video/counter.mp4", as: "motion.mp4", in: folder, tags: Self.videoTags)
        let videoBytes = try Data(contentsOf: URL(fileURLWithPath: video))
        let still = try Self.located("pictures/camera.jpg", as: "still.jpg", in: folder,
                                     tags: Self.stillTags + ["-XMP-GCamera:MicroVideo=1", "-XMP-GCamera:MicroVideoVersion=1",
                                                             "-XMP-GCamera:MicroVideoOffset=\(videoBytes.count)"])
        let motion = folder.appendingPathComponent("PXL_motion.jpg").path
        try (try Data(contentsOf: URL(fileURLWithPath: still)) + videoBytes).write(to: URL(fileURLWithPath: motion))
        let output = folder.appendingPathComponent("stripped.jpg").path
        let run = try ToolRun.run(["strip", motion, "-o", output])
        #expect(run.status == 0, "\(run.standardError)")
        let stripped = try Data(contentsOf: URL(fileURLWithPath: output))
        let tail = folder.appendingPathComponent("tail.mp4")
        try stripped.suffix(videoBytes.count).write(to: tail)
        #expect(Self.revealing(try Self.tags(of: tail.path)).isEmpty)
        #expect(Self.revealing(try Self.tags(of: output)).isEmpty)
        #expect(try Self.content(of: tail.path, in: folder) == Self.content(of: video, in: folder))
        #expect(try Self.tags(of: output)["XMP-GCamera:MicroVideoOffset"] == String(videoBytes.count))
    }

    /// Files strip does not read, and headers that lie about their sizes, fail in one line naming
    /// the file; nothing is written for them, and the other inputs are stripped.
    @Test(.enabled(if: try referencesInstalled))
    func unknownAndLyingFilesFailInOneLineAndTheBatchGoesOn() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = try Self.located("pictures/camera.jpg", as: "good.jpg", in: folder, tags: Self.stillTags)
        var lying: [String] = []
        // A JPEG segment, a PNG chunk, a WebP chunk and an MP4 box each claiming more than the file holds.
        func write(_ name: String, _ bytes: [UInt8]) throws {
            let path = folder.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            lying.append(path)
        }
        try write("segment.jpg", [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xF0] + Array("Exif\0\0".utf8))
        try write("chunk.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x7F, 0xFF, 0xFF, 0xF0] + Array("tEXtabc".utf8))
        try write("chunk.webp", Array("RIFF".utf8) + [0x40, 0, 0, 0] + Array("WEBPEXIF".utf8) + [0xF0, 0xFF, 0xFF, 0x0F, 0, 0])
        try write("box.mp4", [0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 0, 0] + [0x7F, 0xFF, 0xFF, 0xF0] + Array("moov".utf8))
        try write("notes.txt.jpg", Array("just some words".utf8))
        let run = try ToolRun.run(["strip", "--out-dir", folder.appendingPathComponent("out").path, good] + lying)
        #expect(run.status == 1)
        for path in lying {
            let name = URL(fileURLWithPath: path).lastPathComponent
            #expect(Self.failureLines(run, naming: name).count == 1, "\(name): \(run.standardError)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/" + name).path))
        }
        #expect(Self.revealing(try Self.tags(of: folder.appendingPathComponent("out/good.jpg").path)).isEmpty)
    }

    /// Two classes of real camera files (the bench's corpus): stray bytes between segments, which
    /// libjpeg and exiftool skip; and IPTC in a JPEG with an MPF segment, whose offsets must not
    /// move, so the IPTC resource keeps its length (its name takes up what went).
    @Test(.enabled(if: try referencesInstalled))
    func strayBytesAndIPTCBeforeMPFAreStrippedInPlace() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let located = try Self.located("pictures/camera.jpg", as: "photo.jpg", in: folder, tags: Self.stillTags + ["-IPTC:City=Paris"])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: located)))
        // After SOI's first segment: "hello", then an APP2 MPF segment listing no pictures.
        let first = 2 + 2 + (Int(bytes[4]) << 8 | Int(bytes[5]))
        let tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]
        let mpf: [UInt8] = [0xFF, 0xE2, 0, UInt8(2 + 4 + tiff.count)] + Array("MPF\0".utf8) + tiff
        bytes.insert(contentsOf: Array("hello".utf8) + mpf, at: first)
        let input = folder.appendingPathComponent("quirky.jpg").path
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        try #require(try Self.tags(of: input)["IPTC:City"] == "Paris")
        let output = folder.appendingPathComponent("out.jpg").path
        let run = try ToolRun.run(["strip", input, "-o", output])
        #expect(run.status == 0, "\(run.standardError)")
        let after = try Self.tags(of: output)
        #expect(Self.revealing(after).isEmpty, "\(Self.revealing(after))")
        #expect(after["IPTC:ApplicationRecordVersion"] != nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)).count == bytes.count)
        #expect(try Self.content(of: output, in: folder) == Self.content(of: input, in: folder))
    }
}
