import Foundation
import Testing
import TestSupport

/// `ingest`: every output of each upload from one run, the manifest that lists them, and the
/// batch's promises (one line each, nothing partial, the others go on, --skip-existing).
@Suite struct IngestRunTests {
    static func lines(_ run: ToolRun) throws -> [String: [String: Any]] {
        var manifests: [String: [String: Any]] = [:]
        for line in run.output.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            manifests[try #require(object["input"] as? String)] = object
        }
        return manifests
    }

    static func files(in folder: URL) throws -> [String] {
        guard let names = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return names.compactMap { $0 as? String }.filter { !$0.hasSuffix("/") && !FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path + "/.") }.sorted()
    }

    /// Two values read from JSON are the same JSON (objects compared member by member, in any order).
    static func same(_ first: Any?, _ second: Any?) throws -> Bool {
        func text(_ value: Any?) throws -> Data {
            try JSONSerialization.data(withJSONObject: [value ?? NSNull()], options: [.sortedKeys, .fragmentsAllowed])
        }
        return try text(first) == text(second)
    }

    static func writeRecipe(_ text: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("recipe-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The manifest's probe fields are probe's, name for name and value for value; each rendition
    /// is where it says, of the size and bytes it says; the file beside them holds the same.
    @Test func aPhotosManifestHoldsItsProbeAndEveryRendition() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = Fixture.path("heif/grid6.heic")
        let recipe = try Self.writeRecipe(#"{"renditions": [{"name": "square", "size": "32", "fill": "attention"}, {"name": "wide", "size": "48x"}, {"name": "lossless", "size": "40", "format": "png"}]}"#, in: folder)
        let run = try ToolRun.run(["ingest", "--recipe", recipe, "--out-dir", folder.appendingPathComponent("out").path, "--json", input])
        #expect(run.status == 0 && run.standardError == "", "\(run.standardError)")
        let manifest = try #require(try Self.lines(run)[input])
        // Without the position, as ingest writes its manifest unless --location keep.
        let probe = try ToolRun.run(["probe", "--json", "--location", "remove", input])
        let probed = try #require(try JSONSerialization.jsonObject(with: Data(probe.output.utf8)) as? [String: Any])
        #expect(manifest["gps"] == nil)
        for (name, value) in probed where !["status", "error", "input", "ms", "output"].contains(name) {
            #expect(manifest[name] != nil, "\(name) missing")
            #expect(try Self.same(manifest[name], value), "\(name)")
        }
        let (width, height) = (try #require(probed["width"] as? Int), try #require(probed["height"] as? Int))
        let renditions = try #require(manifest["renditions"] as? [[String: Any]])
        #expect(renditions.map { $0["name"] as? String } == ["square", "wide", "lossless"])
        let expected = [(32, 32), (48, Int((Double(height) * 48 / Double(width)).rounded())),
                        width >= height ? (40, Int((Double(height) * 40 / Double(width)).rounded())) : (Int((Double(width) * 40 / Double(height)).rounded()), 40)]
        for (rendition, size) in zip(renditions, expected) {
            let path = try #require(rendition["path"] as? String)
            #expect(rendition["width"] as? Int == size.0 && rendition["height"] as? Int == size.1, "\(rendition)")
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.size] as? NSNumber)?.intValue == rendition["bytes"] as? Int)
            let identify = try ChildProcess.run("/usr/bin/identify", ["-format", "%m %w %h", path])
            let format = rendition["format"] as? String == "png" ? "PNG" : "JPEG"
            #expect(String(decoding: identify.standardOutput, as: UTF8.self) == "\(format) \(size.0) \(size.1)")
        }
        #expect(renditions.map { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }
                == ["grid6.heic.square.jpg", "grid6.heic.wide.jpg", "grid6.heic.lossless.png"])
        // The file beside them: the same manifest, without the run's own fields.
        let file = try #require(manifest["output"] as? String)
        #expect(file.hasSuffix("out/grid6.heic.json"))
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        #expect(Set(saved.keys) == Set(manifest.keys).subtracting(["output", "status", "error", "ms"]))
        for name in saved.keys { #expect(try Self.same(saved[name], manifest[name]), "\(name)") }
    }

    /// A video: its poster's renditions, a storyboard (its WebVTT file and sheet), a preview, its
    /// web video (its index is after its media data), and placeholders of the poster; with the
    /// default recipe.
    @Test func aVideoGetsPosterRenditionsStoryboardAndPreview() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = Fixture.path("video/counter.mp4")
        let out = folder.appendingPathComponent("out")
        let run = try ToolRun.run(["ingest", "--out-dir", out.path, "--json", input])
        #expect(run.status == 0, "\(run.standardError)")
        let manifest = try #require(try Self.lines(run)[input])
        #expect(manifest["kind"] as? String == "video")
        let renditions = try #require(manifest["renditions"] as? [[String: Any]])
        #expect(renditions.map { $0["name"] as? String } == ["thumbnail", "medium", "medium_large", "large", "1536x1536", "2048x2048", "storyboard", "preview",
                                                             "web_video"])
        #expect(try Self.files(in: out) == ["counter.mp4.1536x1536.jpg", "counter.mp4.2048x2048.jpg", "counter.mp4.json", "counter.mp4.large.jpg",
                                            "counter.mp4.medium.jpg", "counter.mp4.medium_large.jpg", "counter.mp4.preview.webp",
                                            "counter.mp4.storyboard.sheet-1.jpg", "counter.mp4.storyboard.vtt", "counter.mp4.thumbnail.jpg",
                                            "counter.mp4.web.mp4"])
        let vtt = try String(contentsOf: out.appendingPathComponent("counter.mp4.storyboard.vtt"), encoding: .utf8)
        #expect(vtt.hasPrefix("WEBVTT") && vtt.contains("counter.mp4.storyboard.sheet-1.jpg#xywh="))
        let webp = try ChildProcess.run("/usr/bin/webpmux", ["-info", out.appendingPathComponent("counter.mp4.preview.webp").path])
        #expect(String(decoding: webp.standardOutput, as: UTF8.self).contains("Number of frames"))
        let placeholder = try #require(manifest["placeholder"] as? [String: Any])
        #expect((placeholder["thumbhash"] as? String)?.isEmpty == false && (placeholder["blurhash"] as? String)?.count == 28)
        let hash = try #require(manifest["hash"] as? [String: Any])
        #expect((hash["phash"] as? String)?.count == 16 && (hash["dhash"] as? String)?.count == 16)
    }

    /// The storyboard and the preview ingest makes in one pass over the video are, byte for byte,
    /// those `storyboard` and `preview` make each in a pass of its own.
    @Test(arguments: ["counter.mp4", "counter.mkv", "anamorphic.mp4", "bars-bt709-hevc.mp4"])
    func storyboardAndPreviewAreTheSubcommandsOwn(fixture: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = Fixture.path("video/\(fixture)")
        let ingest = try ToolRun.run(["ingest", "--out-dir", folder.appendingPathComponent("i").path, input])
        let preview = try ToolRun.run(["preview", input, "-o", folder.appendingPathComponent("p.webp").path])
        let storyboard = try ToolRun.run(["storyboard", "--out-dir", folder.appendingPathComponent("s").path, input])
        #expect(ingest.status == 0 && preview.status == 0 && storyboard.status == 0)
        let stem = URL(fileURLWithPath: fixture).deletingPathExtension().lastPathComponent
        #expect(try Data(contentsOf: folder.appendingPathComponent("i/\(fixture).preview.webp")) == Data(contentsOf: folder.appendingPathComponent("p.webp")))
        #expect(try Data(contentsOf: folder.appendingPathComponent("i/\(fixture).storyboard.sheet-1.jpg"))
                == Data(contentsOf: folder.appendingPathComponent("s/\(stem).sheet-1.jpg")))
    }

    /// An audio file's picture is its cover art; one without gets its probe alone, and a warning.
    @Test func audioGetsItsCoverArtOrItsProbe() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (cover, plain) = (Fixture.path("video/cover-art.mp3"), Fixture.path("video/audio-only.m4a"))
        let run = try ToolRun.run(["ingest", "--out-dir", folder.path, "--json", cover, plain])
        #expect(run.status == 0)
        let lines = try Self.lines(run)
        let renditions = try #require(lines[cover]?["renditions"] as? [[String: Any]])
        #expect(renditions.count == 6 && lines[cover]?["placeholder"] is [String: Any])
        let thumbnail = try ToolRun.run(["thumbnail", "--cover", cover, "-o", folder.appendingPathComponent("cover.png").path])
        #expect(thumbnail.status == 0)
        let identify = try ChildProcess.run("/usr/bin/identify", ["-format", "%w %h", folder.appendingPathComponent("cover.png").path])
        #expect(String(decoding: identify.standardOutput, as: UTF8.self) == "\(renditions[0]["width"]!) \(renditions[0]["height"]!)")
        #expect((lines[plain]?["renditions"] as? [Any])?.isEmpty == true)
        #expect(run.errorLines.contains("mediatool: warning: \(plain): an audio file without cover art: its manifest holds its probe only"))
    }

    /// A video whose header claims a duration of ages trapped in the storyboard's arithmetic (the
    /// sandbox off: the whole run). Now it is made, its times past the end said in a warning; its
    /// web video, whose frames run past the longest made, fails it whole, in one line.
    @Test func aLyingDurationIsNoCrash() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = Fixture.path("probe/hostile-duration.mov")
        let recipe = try Self.writeRecipe(#"{"storyboard": {"every": 0.001}, "web_video": false}"#, in: folder)
        let noWebVideo = try Self.writeRecipe(#"{"web_video": false}"#, in: folder)
        let run = try ToolRun.run(["ingest", "--sandbox", "off", "--recipe", noWebVideo, "--out-dir", folder.appendingPathComponent("a").path, input])
        #expect(run.status == 0, "\(run.standardError)")
        let web = try ToolRun.run(["ingest", "--sandbox", "off", "--out-dir", folder.appendingPathComponent("c").path, input])
        #expect(web.status == 1 && web.errorLines.filter { !$0.hasPrefix("mediatool: warning") && !$0.hasPrefix("mediatool: summary") }
                == ["mediatool: \(input): the video runs past 14400 s, the longest web video made (transcode --max-duration)"], "\(web.standardError)")
        #expect(try Self.files(in: folder.appendingPathComponent("c")).isEmpty)
        let every = try ToolRun.run(["ingest", "--sandbox", "off", "--recipe", recipe, "--out-dir", folder.appendingPathComponent("b").path, input])
        #expect(every.status == 1)
        #expect(every.errorLines.filter { !$0.hasPrefix("mediatool: warning") && !$0.hasPrefix("mediatool: summary") && !$0.hasPrefix("mediatool: failed") }
                == ["mediatool: \(input): 9223372036854775807 frames asked for; a storyboard holds at most 100000"])
        #expect(try Self.files(in: folder.appendingPathComponent("b")).isEmpty)
    }

    /// A storyboard's sheets are named when they are written: a second run over an out-dir that is
    /// the uploads' folder passes them over as its own, and a recipe whose names would make another
    /// upload's output a sheet is refused before any work.
    @Test func storyboardSheetsAreKeptApart() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let same = folder.appendingPathComponent("same")
        try FileManager.default.createDirectory(at: same, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixture.path("video/counter.mp4"), toPath: same.appendingPathComponent("counter.mp4").path)
        #expect(try ToolRun.run(["ingest", "--out-dir", same.path, same.path]).status == 0)
        let again = try ToolRun.run(["ingest", "--overwrite", "--json", "--out-dir", same.path, same.path])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try Self.lines(again).keys.map { URL(fileURLWithPath: $0).lastPathComponent } == ["counter.mp4"])

        let uploads = folder.appendingPathComponent("up")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixture.path("video/counter.mp4"), toPath: uploads.appendingPathComponent("clip.mp4").path)
        try FileManager.default.copyItem(atPath: Fixture.path("pictures/rgb8.png"), toPath: uploads.appendingPathComponent("clip.sheet-1.png").path)
        let recipe = try Self.writeRecipe(#"{"renditions": [{"name": "thumbs", "size": "150"}], "names": {"rendition": "{name}/{stem}.{format}", "storyboard": "thumbs/{stem}.vtt"}}"#, in: folder)
        let refused = try ToolRun.run(["ingest", "--recipe", recipe, "--out-dir", folder.appendingPathComponent("out").path, uploads.path])
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("would both write \(folder.appendingPathComponent("out").path)/thumbs/clip.sheet-1.jpg; a storyboard's sheets are named after its WebVTT file"))
    }

    /// With --skip-existing, a file in the place of one output of an input without a manifest is
    /// no sign that it is done: the input fails, and says which file is in the way.
    @Test func aStrayFileIsNoManifest() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheet = folder.appendingPathComponent("counter.mp4.storyboard.sheet-1.jpg")
        try Data("x".utf8).write(to: sheet)
        let run = try ToolRun.run(["ingest", "--skip-existing", "--json", "--out-dir", folder.path, Fixture.path("video/counter.mp4")])
        #expect(run.status == 1)
        #expect(try Self.lines(run).values.first?["status"] as? String == "failed")
        #expect(run.errorLines.contains { $0.contains("output exists: \(sheet.path)") })
    }

    /// Bad uploads among good ones: each a failed line and an error naming it, nothing of theirs
    /// on disk, the good one done, exit 1.
    @Test func badUploadsFailAloneAndLeaveNothing() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let bad = ["pictures/truncated.jpg", "pictures/truncated.png", "pictures/not-a-picture.png"].map(Fixture.path)
        let good = Fixture.path("pictures/orientation6.jpg")
        let run = try ToolRun.run(["ingest", "--out-dir", out.path, "--json", "--jobs", "2"] + bad + [good])
        #expect(run.status == 1)
        let lines = try Self.lines(run)
        for input in bad {
            #expect(lines[input]?["status"] as? String == "failed")
            #expect(run.errorLines.contains { $0.hasPrefix("mediatool: \(input): ") })
        }
        #expect(lines[good]?["status"] as? String == "ok")
        #expect(try Self.files(in: out).allSatisfy { $0.hasPrefix("orientation6.jpg.") })
        #expect(try Self.files(in: out).count == 7)
    }

    /// A second run with --skip-existing skips what is done; an input whose manifest is gone is
    /// ingested again, and the renditions it finds are kept, not made again.
    @Test func skipExistingSkipsDoneUploadsAndKeepsRenditions() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let inputs = [Fixture.path("pictures/orientation3.jpg"), Fixture.path("pictures/orientation5.jpg")]
        let first = try ToolRun.run(["ingest", "--out-dir", out.path] + inputs)
        #expect(first.status == 0)
        let again = try ToolRun.run(["ingest", "--out-dir", out.path, "--skip-existing", "--json"] + inputs)
        #expect(again.status == 0)
        #expect(try Self.lines(again).values.allSatisfy { $0["status"] as? String == "skipped" })
        // Each named by its manifest, the output that makes it done.
        #expect(try Self.lines(again).values.allSatisfy { ($0["output"] as? String)?.hasSuffix(".jpg.json") == true })
        // The manifest and one rendition of one input gone: made again, the rest kept.
        try FileManager.default.removeItem(at: out.appendingPathComponent("orientation3.jpg.json"))
        try FileManager.default.removeItem(at: out.appendingPathComponent("orientation3.jpg.large.jpg"))
        let medium = out.appendingPathComponent("orientation3.jpg.medium.jpg")
        let keptBefore = try FileManager.default.attributesOfItem(atPath: medium.path)[.modificationDate] as? Date
        let third = try ToolRun.run(["ingest", "--out-dir", out.path, "--skip-existing", "--json"] + inputs)
        #expect(third.status == 0, "\(third.standardError)")
        let lines = try Self.lines(third)
        #expect(lines[inputs[1]]?["status"] as? String == "skipped")
        let renditions = try #require(lines[inputs[0]]?["renditions"] as? [[String: Any]])
        #expect(renditions.filter { $0["kept"] as? Bool == true }.count == 5)
        #expect(renditions.first { $0["name"] as? String == "large" }?["bytes"] as? Int != nil)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("orientation3.jpg.large.jpg").path))
        #expect(try FileManager.default.attributesOfItem(atPath: medium.path)[.modificationDate] as? Date == keptBefore)
    }

    /// A video's ingest cut short while its outputs were being placed (as by `kill -9`: some
    /// placed, its manifest not): the rerun docs/ingest.md gives completes it. `--skip-existing`
    /// keeps the renditions found but refuses a sheet in the way (no sign the input was done);
    /// `--overwrite` then makes the whole set again, the manifest last.
    @Test func theDocumentedRerunCompletesAnIngestCutShortWhilePlacing() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = Fixture.path("video/counter.mp4")
        let first = try ToolRun.run(["ingest", "--out-dir", folder.path, video])
        #expect(first.status == 0, "\(first.standardError)")
        let complete = try Self.files(in: folder)
        // Left as a cut-short placement leaves it: the manifest and the storyboard's index missing.
        for name in ["counter.mp4.json", "counter.mp4.storyboard.vtt"] {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
        let sheet = try #require(complete.first { $0.hasPrefix("counter.mp4.storyboard.") && $0.hasSuffix(".jpg") })
        let skipping = try ToolRun.run(["ingest", "--skip-existing", "--out-dir", folder.path, video])
        #expect(skipping.status == 1)
        #expect(skipping.errorLines.contains { $0.contains("output exists: \(folder.appendingPathComponent(sheet).path)") })
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("counter.mp4.json").path))
        let overwriting = try ToolRun.run(["ingest", "--overwrite", "--json", "--out-dir", folder.path, video])
        #expect(overwriting.status == 0, "\(overwriting.standardError)")
        #expect(try Self.files(in: folder) == complete)
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("counter.mp4.json"))) as? [String: Any])
        #expect((manifest["renditions"] as? [Any])?.isEmpty == false)
    }

    /// Every mistake in a recipe is a usage error naming its place, before any input is read (the
    /// input here does not exist).
    @Test(arguments: [
        (#"{"renditions": [{"name": "a", "size": "abc"}]}"#, "the recipe's renditions[0].size: expected a size"),
        (#"{"renditions": [{"name": "a", "sise": "150"}]}"#, #"the recipe's renditions[0] has no key "sise" (it takes "name", "size", "fill", "enlarge", "format", "formats", "quality")"#),
        (#"{"renditions": [{"name": "a", "size": "150", "format": "png", "formats": ["avif"]}]}"#, #"renditions[0]: expected "format" or "formats", found both"#),
        (#"{"renditions": [{"name": "a", "size": "150", "formats": ["avif", "webp", "avif"]}]}"#, #"renditions[0].formats[2]: expected each format once, found "avif" again"#),
        (#"{"renditions": [{"name": "a", "size": "150", "formats": []}]}"#, "renditions[0].formats: expected a list of formats"),
        (#"{"renditions": [{"name": "a", "size": "150", "formats": ["heic"]}]}"#, "renditions[0].formats[0]: expected jpeg, png, webp or avif"),
        (#"{"renditions": [{"name": "a", "size": "150", "formats": ["avif", "jpeg"]}], "names": {"rendition": "{stem}.{name}.img"}}"#,
         "use {name} and {format} in names.rendition"),
        (#"{"renditions": [{"name": "a", "size": "300x", "fill": "centre"}]}"#, "the recipe's renditions[0].fill: expected a size that is a box"),
        (#"{"renditions": [{"name": "a", "size": "1"}, {"name": "a", "size": "2"}]}"#, #"renditions[1].name: expected a name no other rendition has, found "a" again"#),
        (#"{"renditions": [{"name": "A b", "size": "1"}]}"#, "renditions[0].name: expected a name of 1 to 64 lower-case letters"),
        (#"{"names": {"rendition": "{stem}.jpg"}}"#, "names.rendition: expected a template with {name} or {size}"),
        (#"{"names": {"manifest": "../{stem}.json"}}"#, #"names.manifest: expected a relative file name template of at most 1024 bytes: no "..""#),
        (#"{"storyboard": {"count": 10, "every": 2}}"#, #"storyboard: expected "count" or "every", found both"#),
        (#"{"preview": {"format": "gif"}}"#, "preview.format: expected webp or mp4"),
        (#"{"placeholders": {"blurhash": [4, 12]}}"#, "placeholders.blurhash[1]: expected a whole number from 1 to 9"),
        (#"{"renditions": [{"name": "a", "size": "150"}], "quality": 0}"#, "quality: expected a whole number from 1 to 100, found 0"),
        (#"{"names": {"preview": "{stem}.{ext}.json/x"}}"#, "names {stem}.{ext}.json (names.manifest) as a file and as a folder of names.preview"),
        (#"{"names": {"manifest": "{stem}\u202e.json"}}"#, "names.manifest: expected a relative file name template of at most 1024 bytes"),
        (#"{"storyboard": {"width": 1920, "columns": 10, "rows": 12}}"#, "asks for storyboard sheets of 19200x12960 or more"),
        (#"{"renditions": [], }"#, #"the recipe is not JSON: line 1, column 20: expected a member's name in double quotes, found "}""#),
        (#"{"renditions": [{"name": "huge", "size": "40000", "enlarge": true}]}"#, #"the recipe's rendition "huge" (40000, enlarged) needs 12208 MiB, over --max-memory"#),
    ])
    func recipeMistakesAreNamedBeforeAnyInput(recipe: String, message: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.writeRecipe(recipe, in: folder)
        let run = try ToolRun.run(["ingest", "--recipe", path, "--out-dir", folder.appendingPathComponent("out").path, folder.appendingPathComponent("missing.jpg").path])
        #expect(run.status == 64)
        #expect(run.errorLines.count == 1 && run.standardError.contains(message), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    /// A video whose two frames pass the memory limit, where one fits: each part of its ingest
    /// (the poster, the storyboard, the preview) is made with one frame held at a time. The red
    /// team's 8K clip at the default 1 GiB, alone in its run, waited for its own memory until it
    /// was refused (the poster's two readers, the storyboard's keyframe reader kept while its exact
    /// one opened, the poster decoded beside both); a 720p clip at 24 MiB is the same.
    @Test(.enabled(if: try Requirement.tool(StoryboardTests.ffmpeg), "ffmpeg is not installed (scripts/bootstrap test installs it)"),
          arguments: [#"{"renditions": [], "preview": false, "storyboard": false, "web_video": false}"#,
                      #"{"renditions": [], "preview": false, "web_video": false}"#, #"{"renditions": [], "storyboard": false, "web_video": false}"#])
    func aVideoOfOneFrameWithinTheLimitIsIngestedAFrameAtATime(recipe: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("clip.mp4").path
        // 1280x720: a frame holds 14.1 MiB of the budget (16 bytes a pixel), two 28.1, over 24.
        let made = try ChildProcess.run(StoryboardTests.ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-f", "lavfi",
                                                                 "-i", "testsrc2=size=1280x720:rate=25:duration=0.5", "-c:v", "libx264",
                                                                 "-preset", "ultrafast", "-pix_fmt", "yuv420p", video])
        try #require(made.status == 0, "\(String(decoding: made.standardError, as: UTF8.self))")
        let run = try ToolRun.run(["ingest", "--recipe", try Self.writeRecipe(recipe, in: folder), "--max-memory", "24M", "--timeout", "12",
                                   "--out-dir", folder.appendingPathComponent("out").path, "--json", video])
        let manifest = try #require(try Self.lines(run)[video])
        #expect(run.status == 0 && manifest["status"] as? String == "ok", "\(manifest["error"] ?? run.standardError)")
    }
}
