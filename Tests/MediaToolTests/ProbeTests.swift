import Foundation
import Testing
import TestSupport

/// `probe`: the facts of a file from its header, against what ffprobe, exiftool and the fixture
/// scripts set (scripts/fixtures/probe.sh checks its files against ffprobe and exiftool), and the
/// size shown against what `thumbnail` writes.
@Suite struct ProbeTests {
    /// Every JSON line of a run, by input.
    static func lines(_ run: ToolRun) throws -> [String: [String: Any]] {
        var lines: [String: [String: Any]] = [:]
        for line in run.output.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            lines[try #require(object["input"] as? String)] = object
        }
        return lines
    }

    static func probe(_ arguments: [String]) throws -> (ToolRun, [String: [String: Any]]) {
        let run = try ToolRun.run(["probe", "--format", "json"] + arguments, deadline: 60)
        return (run, try lines(run))
    }

    @Test func aPhoneVideoIsShownPortraitInHLGWithItsDatePlaceAndCamera() throws {
        let input = Fixture.path("probe/phone-hlg-portrait.mov")
        let (run, lines) = try Self.probe([input])
        #expect(run.status == 0)
        #expect(run.errorLines == [])
        let line = try #require(lines[input])
        #expect(line["status"] as? String == "ok")
        #expect(line["kind"] as? String == "video")
        #expect(line["format"] as? String == "mov")
        #expect(line["mime"] as? String == "video/quicktime")
        // Stored 96x64, turned by the display matrix (ffprobe: rotation -90): shown 64x96.
        #expect(line["width"] as? Int == 64 && line["height"] as? Int == 96)
        #expect(line["coded_width"] as? Int == 96 && line["coded_height"] as? Int == 64)
        #expect(line["rotation"] as? Int == 90 && line["orientation"] as? Int == 6)
        #expect(line["duration"] as? Double == 0.2)
        #expect(line["fps"] as? Double == 30 && line["frames"] as? Int == 6)
        #expect(line["codec"] as? String == "hevc" && line["profile"] as? String == "Main 10")
        #expect(line["bit_depth"] as? Int == 10 && line["pixel_format"] as? String == "yuv420p10le")
        #expect(line["hdr"] as? String == "hlg")
        #expect(line["color_primaries"] as? String == "bt2020" && line["color_transfer"] as? String == "arib-std-b67")
        let audio = try #require(line["audio"] as? [[String: Any]])
        #expect(audio.count == 1)
        #expect(audio.first?["codec"] as? String == "aac" && audio.first?["channels"] as? Int == 2)
        #expect(audio.first?["sample_rate"] as? Int == 48000 && audio.first?["language"] as? String == "eng")
        #expect(line["created"] as? String == "2024-05-01T12:34:56+02:00")
        #expect(line["make"] as? String == "Apple" && line["model"] as? String == "iPhone 15 Pro")
        #expect(line["software"] as? String == "17.4.1")
        let gps = try #require(line["gps"] as? [String: Any])
        #expect(gps["latitude"] as? Double == -33.8568 && gps["longitude"] as? Double == 151.2153 && gps["altitude"] as? Double == 12.5)
        #expect(line["decodes"] is NSNull)
    }

    @Test func aCameraJPEGSouthWestBelowTheSea() throws {
        let input = Fixture.path("probe/camera-south-west.jpg")
        let (run, lines) = try Self.probe([input])
        #expect(run.status == 0)
        let line = try #require(lines[input])
        #expect(line["kind"] as? String == "picture" && line["format"] as? String == "jpeg" && line["mime"] as? String == "image/jpeg")
        #expect(line["width"] as? Int == 61 && line["height"] as? Int == 41 && line["orientation"] as? Int == 6)
        #expect(line["created"] as? String == "2023-12-31T23:59:58.25-03:00")
        #expect(line["make"] as? String == "MediatoolCam" && line["model"] as? String == "Field Unit 7")
        #expect(line["software"] as? String == "Mediatool Firmware 2.1")
        let gps = try #require(line["gps"] as? [String: Any])
        #expect(gps["latitude"] as? Double == -22.9519 && gps["longitude"] as? Double == -43.2105 && gps["altitude"] as? Double == -3.5)
        #expect(line["has_embedded_thumbnail"] as? Bool == true)
        #expect(line["duration"] is NSNull && line["audio"] is NSNull)
    }

    /// `--location remove`, and the `--no-gps` of earlier versions, leave the position out.
    @Test(arguments: [["--location", "remove"], ["--no-gps"]])
    func locationRemoveLeavesThePositionOut(flag: [String]) throws {
        let input = Fixture.path("probe/camera-south-west.jpg")
        let (_, lines) = try Self.probe(flag + [input])
        let line = try #require(lines[input])
        #expect(line["gps"] == nil)
        #expect(line["created"] as? String == "2023-12-31T23:59:58.25-03:00")
    }

    @Test func everyFieldIsInEveryLineInOneOrder() throws {
        let inputs = [Fixture.path("probe/camera-south-west.jpg"), Fixture.path("probe/phone-hlg-portrait.mov"), Fixture.path("video/audio-only.m4a")]
        let run = try ToolRun.run(["probe", "--format", "json", "--jobs", "1"] + inputs, deadline: 60)
        let names = run.output.split(separator: "\n").map { line in
            // The keys in the order written, from the text (JSONSerialization forgets it).
            line.split(separator: ",").compactMap { member -> String? in
                guard let quote = member.firstIndex(of: "\""), member[member.index(after: quote)...].contains("\":") else { return nil }
                let rest = member[member.index(after: quote)...]
                return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
            }.filter { !["codec", "channels", "sample_rate", "language", "latitude", "longitude", "altitude", "width", "height"].contains($0) }
        }
        #expect(names.count == 3)
        #expect(Set(names.map { $0 }).count == 1)
        #expect(names.first?.prefix(6) == ["input", "status", "error", "kind", "format", "mime"])
        #expect(names.first?.last == "decodes")
    }

    /// The size shown is the size `thumbnail` writes: every orientation of JPEG, PNG, HEIF, WebP
    /// and video, anamorphic pixels, a clean aperture.
    @Test func theSizeShownIsTheSizeThumbnailWrites() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var inputs: [String] = []
        for orientation in 1...8 {
            inputs += ["pictures/orientation\(orientation).jpg", "pictures/orientation\(orientation).png", "heif/orientation\(orientation).heic",
                       "webp/orientation\(orientation).webp", "video/quadrants-orientation\(orientation).mp4"].map(Fixture.path)
        }
        inputs += ["video/anamorphic.mp4", "heif/clap.heic", "heif/grid6.heic", "probe/phone-hlg-portrait.mov", "video/counter.ts"].map(Fixture.path)
        let (probeRun, probed) = try Self.probe(inputs)
        #expect(probeRun.status == 0)
        let made = try ToolRun.run(["thumbnail", "--json", "--quiet", "--out-dir", folder.path, "--name", "{stem}.{ext}.png"] + inputs, deadline: 120)
        #expect(made.errorLines == [])
        #expect(made.status == 0)
        let thumbnails = try Self.lines(made)
        for input in inputs {
            let line = try #require(probed[input]), thumbnail = try #require(thumbnails[input])
            #expect(line["width"] as? Int == thumbnail["width"] as? Int, "\(input)")
            #expect(line["height"] as? Int == thumbnail["height"] as? Int, "\(input)")
        }
    }

    @Test func picturesSayTheirCodingProfileAndHDR() throws {
        let inputs = ["pictures/hp-srgb.jpg", "hdr/photo-hlg.avif", "hdr/photo-pq.avif", "webp/animated.webp", "webp/lossy.webp",
                      "pictures/graya16.png", "pictures/gray8-trns.png", "heif/depth10.heic", "thumbnails/pyramid.tif"].map(Fixture.path)
        let (run, lines) = try Self.probe(["--quiet"] + inputs)
        #expect(run.status == 0)
        // exiftool -ProfileDescription says the same.
        #expect(lines[inputs[0]]?["icc"] as? String == "sRGB IEC61966-2.1")
        #expect(lines[inputs[1]]?["hdr"] as? String == "hlg" && lines[inputs[1]]?["codec"] as? String == "av1")
        #expect(lines[inputs[2]]?["hdr"] as? String == "pq" && lines[inputs[2]]?["format"] as? String == "avif")
        #expect(lines[inputs[3]]?["frames"] as? Int == 2)
        #expect(lines[inputs[4]]?["codec"] as? String == "vp8" && lines[inputs[4]]?["alpha"] as? Bool == false)
        #expect(lines[inputs[5]]?["bit_depth"] as? Int == 16 && lines[inputs[5]]?["alpha"] as? Bool == true)
        #expect(lines[inputs[6]]?["alpha"] as? Bool == true)
        #expect(lines[inputs[7]]?["bit_depth"] as? Int == 10 && lines[inputs[7]]?["codec"] as? String == "hevc")
        // A pyramid's reduced pages are not pages of their own.
        #expect(lines[inputs[8]]?["frames"] as? Int == 1 && lines[inputs[8]]?["format"] as? String == "tiff")
        // Probing reads headers: no warning about which frame an animation gave.
        #expect(run.errorLines == [])
    }

    @Test func soundAndCoverArt() throws {
        let inputs = ["video/cover-art.mp3", "video/cover-art.mp4", "video/audio-only.m4a"].map(Fixture.path)
        let (run, lines) = try Self.probe(inputs)
        #expect(run.status == 0)
        #expect(lines[inputs[0]]?["kind"] as? String == "audio" && lines[inputs[0]]?["cover_art"] as? Bool == true)
        #expect(lines[inputs[0]]?["mime"] as? String == "audio/mpeg" && lines[inputs[0]]?["width"] is NSNull)
        #expect(lines[inputs[1]]?["kind"] as? String == "video" && lines[inputs[1]]?["cover_art"] as? Bool == true)
        #expect(lines[inputs[1]]?["width"] as? Int == 64)
        #expect(lines[inputs[2]]?["kind"] as? String == "audio" && lines[inputs[2]]?["format"] as? String == "m4a")
    }

    @Test func deepDecodesAndCountsFrames() throws {
        let inputs = ["probe/phone-hlg-portrait.mov", "video/counter.mkv", "pictures/orientation6.jpg"].map(Fixture.path)
        let (run, lines) = try Self.probe(["--deep"] + inputs)
        #expect(run.status == 0)
        #expect(lines[inputs[0]]?["decodes"] as? Bool == true && lines[inputs[0]]?["frames"] as? Int == 6)
        // Matroska's header has no frame count; reading the packets gives the 60.
        #expect(lines[inputs[1]]?["frames"] as? Int == 60)
        #expect(lines[inputs[2]]?["decodes"] as? Bool == true)
        let (plain, plainLines) = try Self.probe([inputs[1]])
        #expect(plain.status == 0)
        #expect(plainLines[inputs[1]]?["frames"] is NSNull && plainLines[inputs[1]]?["decodes"] is NSNull)
    }

    /// A header is all probe reads: a picture over the pixel limit still says its size, and
    /// --deep, which decodes, refuses it.
    @Test func aBombSaysItsSizeAndDeepRefusesIt() throws {
        let input = Fixture.path("pictures/bomb.png")
        let (run, lines) = try Self.probe([input])
        #expect(run.status == 0)
        #expect(lines[input]?["width"] as? Int == 100_000 && lines[input]?["height"] as? Int == 100_000)
        let deep = try ToolRun.run(["probe", "--format", "json", "--deep", input], deadline: 60)
        #expect(deep.status == 1)
        #expect(deep.errorLines == ["mediatool: \(input): 100000x100000 is 10000000000 pixels, over the limit of 268000000 (--max-pixels)"])
    }

    /// Every bad file: one line naming it, a failed line in the report, the others still probed.
    @Test func badInputsFailOneLineEachAndTheBatchGoesOn() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = try FileManager.default.contentsOfDirectory(atPath: Fixture.path("bad")).filter { $0 != "cases.tsv" }.sorted().map { Fixture.path("bad/\($0)") }
        let fifo = folder.appendingPathComponent("no-writer.mp4").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let garbage = folder.appendingPathComponent("garbage.mov").path
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7919 + 13) }).write(to: URL(fileURLWithPath: garbage))
        let good = Fixture.path("probe/camera-south-west.jpg")
        let inputs = bad + [fifo, garbage, "/dev/zero", folder.path + "/missing.jpg", good]
        let run = try ToolRun.run(["probe", "--format", "json", "--quiet"] + inputs, deadline: 120)
        #expect(run.status == 1)
        let lines = try Self.lines(run)
        #expect(lines.count == inputs.count)
        #expect(lines[good]?["status"] as? String == "ok")
        let failed = inputs.filter { lines[$0]?["status"] as? String == "failed" }
        #expect(failed.count >= 5)
        #expect(failed.contains(fifo) && failed.contains(garbage) && failed.contains("/dev/zero"))
        // One line each, naming the input, and the report's error is that line's cause.
        #expect(run.errorLines.filter { !$0.contains(": warning: ") }.count == failed.count)
        for input in failed {
            let error = try #require(lines[input]?["error"] as? String)
            #expect(run.errorLines.contains("mediatool: \(input): \(error)"), "\(input)")
        }
    }

    @Test func aTableForAPerson() throws {
        let inputs = [Fixture.path("probe/phone-hlg-portrait.mov"), Fixture.path("pictures/empty.jpg")]
        let run = try ToolRun.run(["probe", "--format", "table", "--jobs", "1"] + inputs, deadline: 60)
        #expect(run.status == 1)
        let rows = run.output.split(separator: "\n").map(String.init)
        #expect(rows.count == 3)
        #expect(rows.first == "KIND    FORMAT SIZE        ROT DURATION   FRAMES CODEC      HDR CREATED                       FILE")
        // 6 frames: ffprobe's nb_frames of the clip.
        #expect(rows[1] == "video   mov    64x96       90  0.2 s      6      hevc       hlg 2024-05-01T12:34:56+02:00     \(inputs[0])")
        #expect(rows[2].hasPrefix("failed ") && rows[2].hasSuffix(inputs[1]))
    }

    /// A Matroska clip's frames are not in its header: the table shows them once --deep counted
    /// them (60, as ffprobe -count_frames does), as a new user expected.
    @Test func theTableShowsTheFramesDeepCounted() throws {
        let input = Fixture.path("video/counter.mkv")
        let plain = try ToolRun.run(["probe", "--format", "table", input], deadline: 60)
        let deep = try ToolRun.run(["probe", "--deep", "--format", "table", input], deadline: 60)
        // The cell under the FRAMES title.
        func frames(_ output: String) throws -> Substring {
            let rows = output.split(separator: "\n")
            let column = try #require(rows.first?.range(of: "FRAMES")).lowerBound.utf16Offset(in: rows[0])
            let row = try #require(rows.last)
            return row.dropFirst(column).prefix { $0 != " " }
        }
        #expect(try frames(plain.output) == "-")
        #expect(try frames(deep.output) == "60")
    }

    /// A header that says 9e18 seconds (helper-found: the table's seconds trapped): no duration from
    /// it, the sound's instead, and a table row.
    @Test func aLyingDurationIsNoDuration() throws {
        let input = Fixture.path("probe/hostile-duration.mov")
        let (run, lines) = try Self.probe([input])
        #expect(run.status == 0)
        #expect(lines[input]?["duration"] as? Double == 0.2)
        #expect(lines[input]?["fps"] is NSNull)
        let table = try ToolRun.run(["probe", "--format", "table", input], deadline: 60)
        #expect(table.status == 0)
        #expect(table.output.split(separator: "\n").count == 2)
    }

    /// Names no file can have, an empty file, and a name that would turn a terminal's text around.
    @Test func oddNamesAndEmptyFiles() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.mp4").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let reversed = folder.appendingPathComponent("clip\u{202E}4pm.exe").path
        #expect(FileManager.default.createFile(atPath: reversed, contents: Data("not media".utf8)))
        let list = folder.appendingPathComponent("list").path
        #expect(FileManager.default.createFile(atPath: list, contents: Data((Fixture.path("probe/camera-south-west.jpg") + "\u{0}x.jpg\n").utf8)))
        let run = try ToolRun.run(["probe", "--format", "json", "--quiet", "--files-from", list, empty, reversed], deadline: 60)
        #expect(run.status == 1)
        #expect(run.errorLines.contains("mediatool: \(empty): an empty file"))
        #expect(run.errorLines.contains { $0.hasPrefix("mediatool: \(Fixture.path("probe/camera-south-west.jpg"))\\x00x.jpg: a name with a NUL byte names no file") })
        #expect(run.errorLines.contains { $0.contains("clip\\u{202e}4pm.exe: ") })
        #expect(!run.standardError.contains("\u{202E}"))
    }

    /// With one job the lines come in the inputs' order, videos and pictures mixed as given.
    @Test func oneJobReportsInTheInputsOrder() throws {
        let inputs = ["video/counter.mp4", "video/counter.mkv", "pictures/orientation1.jpg", "probe/phone-hlg-portrait.mov",
                      "pictures/orientation2.png", "heif/orientation3.heic"].map(Fixture.path)
        let run = try ToolRun.run(["probe", "--format", "json", "--jobs", "1"] + inputs, deadline: 60)
        #expect(run.status == 0)
        let order = try run.output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["input"] as? String
        }
        #expect(order == inputs)
    }

    @Test func usageErrors() throws {
        let cases: [([String], String)] = [
            ([], "mediatool: Give at least one file. (see 'mediatool probe --help')"),
            (["--format", "xml", "a.jpg"], "mediatool: The value 'xml' is invalid for '--format <json|table>'. Please provide one of 'json' and 'table'. (see 'mediatool probe --help')"),
            (["--json", "--format", "table", "a.jpg"], "mediatool: --json and --format table exclude each other. (see 'mediatool probe --help')"),
        ]
        for (arguments, line) in cases {
            let run = try ToolRun.run(["probe"] + arguments, deadline: 30)
            #expect(run.status == 64)
            #expect(run.errorLines == [line])
        }
    }
}
