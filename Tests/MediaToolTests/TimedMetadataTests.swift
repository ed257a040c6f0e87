import Foundation
import Testing
import TestSupport

/// What QuickTime's timed-metadata tracks (`mebx`) carry (issue 56): a Live Photo video's
/// still-image time, read by probe and taken by ingest as the poster's frame, and positions
/// written as the camera moves, removed by strip; each against exiftool's reading of the same
/// samples (scripts/fixtures/timed_metadata.py builds the tracks; exiftool checks them there too).
@Suite struct TimedMetadataTests {
    static let livePhoto = Fixture.path("video/live-photo.mov")
    static let timedLocation = Fixture.path("video/timed-location.mov")

    static var referencesInstalled: Bool {
        get throws { try LiveAndMotionPhotoProbeTests.referencesInstalled }
    }

    /// exiftool's tags, embedded documents' included (`Doc2:SampleTime`), numbers as numbers.
    static func embedded(_ path: String) throws -> [String: Any] {
        let run = try ChildProcess.run(StripTests.exiftool, ["-j", "-n", "-ee", "-G3", path])
        try #require(run.status == 0)
        let list = try #require(try JSONSerialization.jsonObject(with: run.standardOutput) as? [[String: Any]])
        return list.first ?? [:]
    }

    /// The first `stsz` box at or after `from` in `bytes`: where its sample count lies.
    static func sampleCountOffset(in bytes: Data, from: Int) throws -> Int {
        let found = try #require(bytes.range(of: Data("stsz".utf8), in: from..<bytes.count))
        // Type, version and flags, the fixed sample size: then the count.
        return found.lowerBound + 4 + 4 + 4
    }

    /// `fixture` with its timed-metadata track's `stsz` claiming 2^31-1 samples (the track is the
    /// movie's last, its `stsz` the file's last).
    static func lyingAboutItsSamples(_ fixture: String, in folder: URL, as name: String) throws -> String {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: fixture))
        let lastTrack = try #require(bytes.range(of: Data("trak".utf8), options: .backwards))
        let count = try sampleCountOffset(in: bytes, from: lastTrack.lowerBound)
        bytes.replaceSubrange(count..<(count + 4), with: [0x7F, 0xFF, 0xFF, 0xFF])
        let path = folder.appendingPathComponent(name).path
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(.enabled(if: try referencesInstalled))
    func aLivePhotosVideoSaysWhenItsStillWasTaken() throws {
        let tags = try Self.embedded(Self.livePhoto)
        // The time of the sample whose item is the still-image time, as exiftool reads it.
        let document = try #require(tags.keys.first { $0.hasSuffix(":StillImageTime") }?.split(separator: ":").first)
        let expected = try #require(tags["\(document):SampleTime"] as? Double)
        let other = Fixture.path("video/counter.mov")
        let (run, lines) = try ProbeTests.probe([Self.livePhoto, other])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(lines[Self.livePhoto]?["still_image_time"] as? Double == expected)
        #expect(lines[other]?["still_image_time"] is NSNull)
    }

    /// A track whose sample lies past the end of the file says no time, and the probe is
    /// otherwise whole. (One that claims more samples than the file holds is refused whole, as
    /// any such track is: MP4SampleTables.)
    @Test(.enabled(if: try referencesInstalled))
    func aStillImageTrackThatLiesSaysNoTime() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Self.livePhoto))
        let lastTrack = try #require(bytes.range(of: Data("trak".utf8), options: .backwards))
        let offsets = try #require(bytes.range(of: Data("stco".utf8), in: lastTrack.lowerBound..<bytes.count))
        // Type, version and flags, the count: then the first chunk's offset.
        bytes.replaceSubrange((offsets.lowerBound + 12)..<(offsets.lowerBound + 16), with: [0x7F, 0xFF, 0xFF, 0xF0])
        let lying = folder.appendingPathComponent("lying.mov").path
        try bytes.write(to: URL(fileURLWithPath: lying))
        let (run, lines) = try ProbeTests.probe([lying])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(lines[lying]?["still_image_time"] is NSNull)
        #expect(lines[lying]?["content_identifier"] as? String == LiveAndMotionPhotoProbeTests.identifier)
    }

    /// A movie whose only position is timed metadata says it (the first, as exiftool's first
    /// document reads it): a site must know the file holds one.
    @Test(.enabled(if: try referencesInstalled))
    func aPositionWrittenAsTimedMetadataIsReported() throws {
        let tags = try Self.embedded(Self.timedLocation)
        let first = try #require(tags["Doc1:GPSCoordinates"] as? String).split(separator: " ").compactMap { Double($0) }
        try #require(first.count == 3)
        let (run, lines) = try ProbeTests.probe([Self.timedLocation])
        #expect(run.status == 0, "\(run.standardError)")
        let gps = try #require(lines[Self.timedLocation]?["gps"] as? [String: Any])
        #expect(gps["latitude"] as? Double == first[0] && gps["longitude"] as? Double == first[1] && gps["altitude"] as? Double == first[2])
        let (_, removed) = try ProbeTests.probe(["--location", "remove", Self.timedLocation])
        #expect(removed[Self.timedLocation]?["gps"] == nil)
    }

    /// `thumbnail --at auto` shows a Live Photo's video from its still's frame, at exiftool's
    /// sample time; another video from the frame `auto` chooses.
    @Test(.enabled(if: try referencesInstalled))
    func autoShowsALivePhotosVideoFromItsStill() throws {
        let tags = try Self.embedded(Self.livePhoto)
        let document = try #require(tags.keys.first { $0.hasSuffix(":StillImageTime") }?.split(separator: ":").first)
        let expected = try #require(tags["\(document):SampleTime"] as? Double)
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["thumbnail", "--at", "auto", "--json", Self.livePhoto, "-o", folder.appendingPathComponent("poster.png").path])
        #expect(run.status == 0, "\(run.standardError)")
        let line = try #require(try JSONSerialization.jsonObject(with: run.standardOutput) as? [String: Any])
        #expect(line["seconds"] as? Double == expected)
    }

    /// Small grey pixels of a picture, or of a video's frame at `seconds`, as FFmpeg decodes them.
    static func greys(_ path: String, at seconds: Double? = nil) throws -> [UInt8] {
        let seek = seconds.map { ["-ss", String($0)] } ?? []
        let run = try ChildProcess.run(StripTests.ffmpeg, ["-nostdin", "-v", "error"] + seek + ["-i", path, "-frames:v", "1",
                                                          "-vf", "scale=64:36,format=gray", "-f", "rawvideo", "-"])
        try #require(run.status == 0 && run.standardOutput.count == 64 * 36)
        return [UInt8](run.standardOutput)
    }

    static func distance(_ first: [UInt8], _ second: [UInt8]) -> Int {
        zip(first, second).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    }

    /// The counter's frame at the still's 1.2 s shows another number than its first: the poster is
    /// FFmpeg's frame there, not the first keyframe `auto` takes of another video.
    @Test(.enabled(if: try referencesInstalled))
    func ingestTakesALivePhotosPosterAtItsStill() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recipe = folder.appendingPathComponent("recipe.json")
        try Data(#"{"renditions": [{"name": "poster", "size": "640"}], "web_video": false, "storyboard": false, "preview": false}"#.utf8)
            .write(to: recipe)
        let out = folder.appendingPathComponent("site")
        let run = try ToolRun.run(["ingest", "--recipe", recipe.path, "--out-dir", out.path, Self.livePhoto])
        #expect(run.status == 0, "\(run.standardError)")
        let poster = try Self.greys(out.appendingPathComponent("live-photo.mov.poster.jpg").path)
        let atStill = Self.distance(poster, try Self.greys(Self.livePhoto, at: 1.2))
        let atStart = Self.distance(poster, try Self.greys(Self.livePhoto, at: 0))
        #expect(atStill * 4 < atStart, "poster against the frame at 1.2 s: \(atStill); at 0 s: \(atStart)")
    }

    /// strip removes each position item from the track's samples and keeps the items beside them
    /// (the orientation) and the video's packets; `--location keep` keeps them all.
    @Test(.enabled(if: try referencesInstalled))
    func stripRemovesPositionsWrittenAsTimedMetadata() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func count(_ tags: [String: Any], _ name: String) -> Int { tags.keys.filter { $0.hasSuffix(":\(name)") }.count }
        let before = try Self.embedded(Self.timedLocation)
        try #require(count(before, "GPSCoordinates") == 3 && count(before, "VideoOrientation") == 3)

        let stripped = folder.appendingPathComponent("stripped.mov").path
        let run = try ToolRun.run(["strip", "--json", Self.timedLocation, "-o", stripped])
        #expect(run.status == 0, "\(run.standardError)")
        let after = try Self.embedded(stripped)
        #expect(after.keys.filter { $0.contains("GPS") }.isEmpty, "\(after.keys.sorted())")
        #expect(count(after, "VideoOrientation") == 3)
        let line = try #require(try JSONSerialization.jsonObject(with: run.standardOutput) as? [String: Any])
        #expect((line["removed"] as? [String]) == ["QuickTime:com.apple.quicktime.location.ISO6709 (timed)"])
        func videoPackets(_ path: String) throws -> String {
            let run = try ChildProcess.run(StripTests.ffmpeg, ["-nostdin", "-v", "error", "-i", path, "-map", "0:v", "-c", "copy", "-f", "framemd5", "-"])
            try #require(run.status == 0)
            return String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
        }
        #expect(try videoPackets(stripped) == videoPackets(Self.timedLocation))

        let kept = folder.appendingPathComponent("kept.mov").path
        #expect(try ToolRun.run(["strip", "--location", "keep", Self.timedLocation, "-o", kept]).status == 0)
        #expect(count(try Self.embedded(kept), "GPSCoordinates") == 3)
    }

    /// Tracks of positions that readers read two ways (exiftool and FFmpeg take the last of two
    /// chunk tables; a key entry of two names), and a movie whose tracks claim more samples than
    /// strip reads in one: each refused in one line, nothing written, though exiftool reads the
    /// positions in the first three (the twelfth and thirteenth red teams').
    @Test(.enabled(if: try referencesInstalled),
          arguments: ["timed-location-two-chunk-tables.mov", "timed-location-key-of-two-names.mov", "timed-location-key-entry-of-size-zero.mov",
                      "timed-location-twenty-tracks-of-a-million.mov"])
    func aTrackOfPositionsThatReadsTwoWaysIsRefused(name: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = Fixture.path("timed-metadata/\(name)")
        if !name.contains("twenty") {
            try #require(try Self.embedded(input).keys.contains { $0.hasSuffix(":GPSCoordinates") })
        }
        let output = folder.appendingPathComponent("out.mov").path
        let run = try ToolRun.run(["strip", input, "-o", output])
        #expect(run.status == 1)
        let lines = StripTests.failureLines(run, naming: name)
        // Twenty tracks of a million samples each: the first's run past the file, which is said
        // (the rest are past what one movie's tracks are read to).
        let cause = name.contains("twenty") ? "runs past the end of the file" : "cannot be read one way only"
        #expect(lines.count == 1 && lines.first?.contains(cause) == true, "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// An edit list whose media time is the lowest 64-bit number is a time, never an overflow:
    /// probe, thumbnail and strip go on (it crashed the worker).
    @Test(.enabled(if: try referencesInstalled))
    func aLyingEditListIsNoCrash() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = Fixture.path("timed-metadata/timed-location-lying-edit-list.mov")
        let (probed, _) = try ProbeTests.probe([input])
        #expect(probed.status == 0, "\(probed.standardError)")
        let stripped = folder.appendingPathComponent("stripped.mov").path
        let run = try ToolRun.run(["strip", "--sandbox", "off", input, "-o", stripped])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(try Self.embedded(stripped).keys.filter { $0.contains("GPS") }.isEmpty)
    }

    /// A sample offset near the largest number, in a Motion Photo (its movie starting past the
    /// picture): one line, not an overflow (it crashed the worker, and a run without one).
    @Test(.enabled(if: try referencesInstalled))
    func aSampleOffsetThatOverflowsPastThePictureIsOneLine() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try Data(contentsOf: URL(fileURLWithPath: Fixture.path("timed-metadata/timed-location-offset-near-the-largest.mov")))
        let still = try StripTests.located("pictures/camera.jpg", as: "still.jpg", in: folder,
                                           tags: ["-XMP-GCamera:MicroVideo=1", "-XMP-GCamera:MicroVideoOffset=\(video.count)"])
        let motion = folder.appendingPathComponent("PXL_MAX.MP.jpg").path
        try (try Data(contentsOf: URL(fileURLWithPath: still)) + video).write(to: URL(fileURLWithPath: motion))
        let output = folder.appendingPathComponent("out.jpg").path
        let run = try ToolRun.run(["strip", "--sandbox", "off", motion, "-o", output])
        #expect(run.status == 1)
        #expect(StripTests.failureLines(run, naming: "PXL_MAX.MP.jpg").count == 1, "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// A track of positions whose tables do not place the samples they claim is refused in one
    /// line, nothing written: what strip cannot find, it cannot say it removed.
    @Test(.enabled(if: try referencesInstalled))
    func aTrackOfPositionsThatLiesIsRefusedNotLeft() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lying = try Self.lyingAboutItsSamples(Self.timedLocation, in: folder, as: "lying.mov")
        let output = folder.appendingPathComponent("out.mov").path
        let run = try ToolRun.run(["strip", lying, "-o", output])
        #expect(run.status != 0)
        let lines = StripTests.failureLines(run, naming: "lying.mov")
        #expect(lines.count == 1 && lines.first?.contains("timed-metadata track of com.apple.quicktime.location.ISO6709 that cannot be read") == true,
                "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
