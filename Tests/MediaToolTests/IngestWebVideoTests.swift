import Foundation
import Testing
import TestSupport

/// `ingest` makes the web video of an upload browsers would not play as it is, from the same
/// decode as its poster, storyboard and preview; checked with ffprobe (the reference).
@Suite struct IngestWebVideoTests {
    static var hasReferences: Bool { TranscodeTests.hasReferences }

    static func ingested(_ fixture: String, recipe: String? = nil, sandbox: String = "on") throws -> (folder: URL, run: ToolRun, manifest: [String: Any]?) {
        let folder = try Fixture.scratchFolder()
        var arguments = ["ingest", "--json", "--sandbox", sandbox, "--out-dir", folder.appendingPathComponent("out").path]
        if let recipe { arguments += ["--recipe", try IngestRunTests.writeRecipe(recipe, in: folder)] }
        let run = try ToolRun.run(arguments + [Fixture.path(fixture)], deadline: 300)
        return (folder, run, try IngestRunTests.lines(run)[Fixture.path(fixture)])
    }

    static func entry(_ name: String, of manifest: [String: Any]?) -> [String: Any]? {
        (manifest?["renditions"] as? [[String: Any]])?.first { $0["name"] as? String == name }
    }

    /// A clip stored on its side with PCM sound in a MOV: its web video is H.264 High 4:2:0 with
    /// AAC, upright, and the manifest says what it is (as ffprobe reads it) and why it was made.
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"), arguments: ["on", "off"])
    func aVideoBrowsersCannotPlayGetsAWebVideoTheManifestDescribes(sandbox: String) throws {
        let (folder, run, manifest) = try Self.ingested("video/sync.mov", sandbox: sandbox)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0, "\(run.standardError)")
        let web = try #require(Self.entry("web_video", of: manifest), "\(run.output)")
        let path = try #require(web["path"] as? String)
        #expect(path.hasSuffix("out/sync.mov.web.mp4") && web["file"] as? String == "sync.mov.web.mp4")
        let bytes = try #require((try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue)
        #expect(web["bytes"] as? Int == bytes)
        #expect(web["because"] as? [String] == ["a mov file, not an MP4", "stored rotated by 90 degrees", "pcm_s16le sound, not AAC"])
        let streams = try TranscodeTests.probe(path, "stream=codec_name,profile,pix_fmt,width,height")
        #expect(streams == ["codec_name=h264", "profile=High", "width=\(web["width"] as? Int ?? 0)", "height=\(web["height"] as? Int ?? 0)",
                            "pix_fmt=yuv420p", "codec_name=aac", "profile=LC"], "\(streams)")
        // Upright: the size shown (the probe's), and no display matrix left for a player.
        #expect(web["width"] as? Int == manifest?["width"] as? Int && web["height"] as? Int == manifest?["height"] as? Int)
        #expect(try TranscodeTests.probe(path, "stream_side_data=rotation") == [])
        let counted = try ChildProcess.run(TranscodeTests.ffprobe, ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                                    "stream=nb_read_frames", "-of", "csv=p=0", path], deadline: 60)
        #expect(String(decoding: counted.standardOutput, as: UTF8.self) == "\(web["frames"] as? Int ?? -1)\n")
        #expect((web["codecs"] as? String)?.hasPrefix("avc1.64") == true && (web["codecs"] as? String)?.hasSuffix(",mp4a.40.2") == true)
        let duration = try #require(manifest?["duration"] as? Double)
        #expect((web["milliseconds"] as? Int).map { abs(Double($0) - duration * 1000) <= 40 } == true, "\(web)")
    }

    /// The storyboard, preview and poster renditions taken from the web video's pass are the
    /// pictures their own passes make (each cell's own frame: these clips' keyframes are sparse).
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"),
          arguments: ["video/sync.mov", "video/counter-vfr.mp4", "video/interlaced.mp4", "video/quadrants-orientation6.mp4", "hdr/bars-hlg.mp4"])
    func whatTheOneDecodeGivesIsWhatTheirOwnPassesMake(fixture: String) throws {
        let together = try Self.ingested(fixture, recipe: #"{"web_video": {"always": true}}"#)
        let apart = try Self.ingested(fixture, recipe: #"{"web_video": false}"#)
        defer { for folder in [together.folder, apart.folder] { try? FileManager.default.removeItem(at: folder) } }
        #expect(together.run.status == 0 && apart.run.status == 0, "\(together.run.standardError) \(apart.run.standardError)")
        #expect(Self.entry("web_video", of: together.manifest) != nil && Self.entry("web_video", of: apart.manifest) == nil)
        let made = try IngestRunTests.files(in: apart.folder.appendingPathComponent("out")).filter { !$0.hasSuffix(".json") }
        #expect(made.count >= 9, "\(made)")
        for name in made {
            let first = try Data(contentsOf: together.folder.appendingPathComponent("out/\(name)"))
            let second = try Data(contentsOf: apart.folder.appendingPathComponent("out/\(name)"))
            #expect(first == second, "\(name)")
        }
    }

    /// An H.264 MP4 with its index first, upright, without sound: nothing to make, and the
    /// manifest says it plays as uploaded; the recipe may ask for it always, or never.
    @Test func aVideoBrowsersPlayAsItIsIsNotMadeAgainUnlessAsked() throws {
        let plays = try Self.ingested("video/quadrants-orientation1.mp4")
        defer { try? FileManager.default.removeItem(at: plays.folder) }
        #expect(plays.run.status == 0, "\(plays.run.standardError)")
        let entry = try #require(Self.entry("web_video", of: plays.manifest))
        #expect(entry["plays_as_uploaded"] as? Bool == true && entry["path"] is NSNull)
        #expect(try IngestRunTests.files(in: plays.folder.appendingPathComponent("out")).allSatisfy { !$0.hasSuffix(".web.mp4") })

        let always = try Self.ingested("video/quadrants-orientation1.mp4", recipe: #"{"web_video": {"always": true, "shorter_side": 32}}"#)
        defer { try? FileManager.default.removeItem(at: always.folder) }
        let made = try #require(Self.entry("web_video", of: always.manifest), "\(always.run.standardError)")
        // 96x64 to a shorter side of 32.
        #expect(made["because"] as? [String] == [] && made["height"] as? Int == 32 && made["width"] as? Int == 48, "\(made)")

        let never = try Self.ingested("video/sync.mov", recipe: #"{"web_video": false}"#)
        defer { try? FileManager.default.removeItem(at: never.folder) }
        #expect(never.run.status == 0 && Self.entry("web_video", of: never.manifest) == nil)
        #expect(try IngestRunTests.files(in: never.folder.appendingPathComponent("out")).allSatisfy { !$0.hasSuffix(".web.mp4") })
    }

    /// Asked for HLS: a ladder from the same decode, its master playlist in the manifest with
    /// each rendition, which ffprobe opens and ffmpeg decodes; a second run over the folder
    /// passes its renditions over, as its own outputs, and makes nothing again.
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func aRecipeAsksForAnHLSLadderFromTheSameDecode() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let uploads = folder.appendingPathComponent("up")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        let video = uploads.appendingPathComponent("clip.webm").path
        let made = try ChildProcess.run(TranscodeTests.ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-f", "lavfi",
                                                                "-i", "testsrc2=size=854x480:rate=10:duration=1", "-c:v", "libvpx-vp9",
                                                                "-deadline", "realtime", "-cpu-used", "8", video], deadline: 120)
        try #require(made.status == 0, "\(String(decoding: made.standardError, as: UTF8.self))")
        let recipe = try IngestRunTests.writeRecipe(#"{"web_video": {"hls": true}, "storyboard": {"count": 4}}"#, in: folder)
        let run = try ToolRun.run(["ingest", "--json", "--recipe", recipe, "--out-dir", uploads.path, uploads.path], deadline: 300)
        #expect(run.status == 0, "\(run.standardError)")
        let web = try #require(Self.entry("web_video", of: try IngestRunTests.lines(run)[video]))
        #expect(web["format"] as? String == "hls" && web["file"] as? String == "clip.webm.m3u8")
        #expect(web["because"] as? [String] == ["a webm file, not an MP4", "vp9 video, not H.264"])
        let renditions = try #require(web["renditions"] as? [[String: Any]])
        #expect(renditions.map { "\($0["name"] ?? "") \($0["width"] ?? "")x\($0["height"] ?? "")" } == ["480p 854x480", "360p 640x360"])
        let master = try String(contentsOfFile: try #require(web["path"] as? String), encoding: .utf8)
        for rendition in renditions {
            let playlist = try #require(rendition["playlist"] as? String)
            #expect(master.contains("\n\(playlist)\n"), "\(master)")
            let file = uploads.appendingPathComponent(try #require(rendition["video"] as? String)).path
            #expect((try FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.intValue == rendition["bytes"] as? Int)
        }
        // Every rendition decodes through the master, without a word from ffmpeg.
        let decoded = try ChildProcess.run(TranscodeTests.ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-i", web["path"] as? String ?? "",
                                                                   "-map", "0:v:0", "-map", "0:v:1", "-f", "null", "-"], deadline: 120)
        #expect(decoded.status == 0 && decoded.standardError.isEmpty, "\(String(decoding: decoded.standardError, as: UTF8.self))")
        let again = try ToolRun.run(["ingest", "--json", "--skip-existing", "--recipe", recipe, "--out-dir", uploads.path, uploads.path], deadline: 300)
        #expect(again.status == 0 && again.errorLines.last?.hasPrefix("mediatool: summary: 0 ok, 0 failed, 1 skipped of 1 ") == true,
                "\(again.standardError)")
    }

    /// What the header does not say: H.264 in an MP4 is interlaced in its frames only (its first
    /// is decoded to tell), and a file cut short keeps the index of its whole length. Each gets
    /// its web video, of what decodes.
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func anInterlacedOrCutShortMP4IsNotServedAsItIs() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let interlaced = folder.appendingPathComponent("fields.mp4").path
        let made = try ChildProcess.run(TranscodeTests.ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-f", "lavfi", "-i",
                                                                "testsrc2=size=320x180:rate=10:duration=1", "-c:v", "libx264", "-flags", "+ildct+ilme",
                                                                "-pix_fmt", "yuv420p", "-movflags", "+faststart", interlaced], deadline: 120)
        try #require(made.status == 0)
        // The reference: ffprobe decodes it and says its fields' order.
        #expect(try TranscodeTests.probe(interlaced, "stream=field_order") == ["field_order=tt"])
        for (input, reason) in [(interlaced, "interlaced"), (Fixture.path("video/truncated-front-index.mp4"), "cut short: frames its index lists lie past its end")] {
            let run = try ToolRun.run(["ingest", "--json", "--out-dir", folder.appendingPathComponent("out").path, input], deadline: 300)
            let web = try #require(Self.entry("web_video", of: try IngestRunTests.lines(run)[input]), "\(run.standardError)")
            #expect(web["because"] as? [String] == [reason] && web["path"] is String, "\(web)")
        }
    }

    @Test(arguments: [
        (#"{"web_video": {"preset": "warp"}}"#, "web_video.preset"),
        (#"{"web_video": {"crf": 60}}"#, "web_video.crf"),
        (#"{"web_video": {"shorter_side": 8}}"#, "web_video.shorter_side"),
        (#"{"web_video": {"codec": "vp9"}}"#, "codec"),
        (#"{"web_video": true, "names": {"web_video": "{stem}.{ext}.json"}}"#, "names two outputs"),
    ])
    func aRecipesWebVideoSettingsAreChecked(recipe: String, said: String) throws {
        let (folder, run, _) = try Self.ingested("video/sync.mov", recipe: recipe)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status != 0 && run.errorLines.count == 1 && run.standardError.contains(said), "\(run.standardError)")
        #expect(try IngestRunTests.files(in: folder.appendingPathComponent("out")).isEmpty)
    }
}
