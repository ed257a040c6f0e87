import Foundation
import Testing
import TestSupport

/// Many frames of a video from one pass, in sprite sheets with a WebVTT index.
@Suite struct StoryboardTests {
    /// The frame number in cell `cell` of a sheet of 128x16 counter cells, `columns` a row.
    static func frameNumber(in sheet: DecodedPNG, cell: Int, columns: Int) -> Int {
        let (x, y) = ((cell % columns) * 128, (cell / columns) * 16)
        return (0..<8).reduce(0) { number, bit in
            sheet.pixel(x: x + bit * 16 + 8, y: y + 8)[0] > 128 ? number | (1 << bit) : number
        }
    }

    /// Where keyframes are sparser than the cells (the counter's every 12 frames
    /// against a cell every 6), cells showed one keyframe twice, silently. By default each gets its
    /// own frame, read from the container's index of keyframes; a file that has none (Ogg) keeps
    /// the keyframes and says how many cells repeat one.
    @Test(arguments: ["mp4", "mkv", "ts", "avi", "flv", "mov", "ogv"])
    func cellsAreDifferentMomentsWhereKeyframesAreSparse(container: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = Fixture.path("video/counter.\(container)")
        let run = try ToolRun.run(["storyboard", "--count", "10", "--width", "128", "--tile", "5x2", "--format", "png",
                                   "--vtt", folder.appendingPathComponent("board.vtt").path, input])
        #expect(run.status == 0, "\(run.standardError)")
        let sheet = try DecodedPNG(path: folder.appendingPathComponent("board.sheet-1.png").path)
        let numbers = (0..<10).map { Self.frameNumber(in: sheet, cell: $0, columns: 5) }
        if container == "ogv" {
            #expect(run.errorLines == ["mediatool: warning: \(input): 4 of the 10 cells show the keyframe of the cell before: --exact gives each its own frame"])
        } else {
            #expect(run.standardError == "")
            #expect(numbers == [3, 9, 15, 21, 27, 33, 39, 45, 51, 57])
        }
    }

    /// The counter in Matroska whose Segment Info claims 61,234 s (its 60 frames last 2.4 s).
    static func durationDecoy(in folder: URL) throws -> String {
        var bytes = [UInt8](try Fixture.data("video/counter.mkv"))
        // Duration (0x4489), 8 bytes: a big-endian double of milliseconds.
        let duration = try #require((0..<(bytes.count - 3)).first { bytes[$0] == 0x44 && bytes[$0 + 1] == 0x89 && bytes[$0 + 2] == 0x88 })
        let claimed = (61_234_000.0).bitPattern
        for index in 0..<8 { bytes[duration + 3 + index] = UInt8(truncatingIfNeeded: claimed >> (56 - 8 * UInt64(index))) }
        let path = folder.appendingPathComponent("claims.mkv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A storyboard ends at the video's last frame, whatever duration the file claims: 100 frames
    /// claiming 61,234 s wrote 254 MB in 622 files and said "ok". The last cell shows the last
    /// frame to the claimed end, and a warning says where the frames ended.
    @Test func theStoryboardEndsAtTheLastFrameNotTheClaimedDuration() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let decoy = try Self.durationDecoy(in: folder)
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let vtt = out.appendingPathComponent("board.vtt").path
        let run = try ToolRun.run(["storyboard", "--every", "1", "--vtt", vtt, decoy], deadline: 60)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.errorLines == ["mediatool: warning: \(decoy): the video's frames end at 00:00:02.360 though it claims "
                                   + "17:00:34.000: 4 of the 61234 cells were made, the last showing the last frame to the end"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["board.sheet-1.jpg", "board.vtt"])
        let cues = try String(contentsOfFile: vtt, encoding: .utf8).components(separatedBy: "\n\n").dropFirst()
        #expect(cues.count == 4)
        #expect(cues.last?.hasPrefix("00:00:03.000 --> 17:00:34.000\n") == true, "\(cues.last ?? "")")
        // ingest's storyboard, taken beside its other frames, ends there too.
        let ingested = folder.appendingPathComponent("ingested")
        let ingest = try ToolRun.run(["ingest", "--out-dir", ingested.path, decoy], deadline: 120)
        #expect(ingest.status == 0, "\(ingest.standardError)")
        let made = FileManager.default.enumerator(atPath: ingested.path)?.allObjects.count ?? 0
        #expect(made < 30, "\(made) files")
    }

    /// Two real frames 3000 s apart (the duration is true): --every 1 wrote a sheet after sheet of
    /// one picture (1001 files, 429 MB, for frames 99990 s apart). Past a thousand repeated cells,
    /// nine in ten, a storyboard of cells the timeline makes (--every) is refused, and nothing is
    /// left; a --count, the user's own number, is made as asked.
    @Test func aStoryboardOfMostlyRepeatedCellsIsRefused() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = Fixture.path("video/two-frames-apart.mkv")
        let run = try ToolRun.run(["storyboard", "--every", "1", "--vtt", folder.appendingPathComponent("s.vtt").path, input], deadline: 120)
        #expect(run.status == 1)
        #expect(run.errorLines.first == "mediatool: \(input): 1001 of the first 1002 cells show the frame of the cell before: the video has far fewer "
                + "frames than cells (two frames 27 hours apart make 100000 cells of two pictures): give a longer --every, or --count")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        // Asked for fewer, it is made.
        let fewer = try ToolRun.run(["storyboard", "--count", "10", "--vtt", folder.appendingPathComponent("s.vtt").path, input], deadline: 120)
        #expect(fewer.status == 0, "\(fewer.standardError)")
    }

    /// A clip of one keyframe, 16 cells: 16 different frames, none repeated.
    @Test func aClipOfOneKeyframeGivesSixteenDifferentCells() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["storyboard", "--count", "16", "--tile", "none", "--json", "--out-dir", folder.path,
                                   Fixture.path("video/fade-in-one-keyframe.mp4")])
        #expect(run.status == 0 && run.standardError == "", "\(run.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: run.standardOutput) as? [String: Any])
        let shown = try #require((report["frames"] as? [[String: Any]])?.compactMap { $0["shown"] as? Double })
        #expect(shown.count == 16 && Set(shown).count == 16, "\(shown)")
        let pictures = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jpg") }
        #expect(Set(try pictures.map { try Data(contentsOf: folder.appendingPathComponent($0)) }).count == 16)
    }

    /// The counter's 60 frames at 25 fps, keyframes every 12: ten times at the middles of ten
    /// equal intervals (0.12 s, 0.36 s, ...) show frames 3, 9, 15..., or (--keyframe) the keyframes before them.
    @Test(arguments: [("mp4", false), ("mkv", false), ("ts", false), ("avi", false), ("flv", false), ("ogv", false),
                      ("mp4", true), ("mkv", true), ("ts", true), ("avi", true), ("flv", true), ("ogv", true)])
    func tenFramesAreTheExpectedOnes(container: String, exact: Bool) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let vtt = folder.appendingPathComponent("board.vtt").path
        let run = try ToolRun.run(["storyboard", "--count", "10", "--width", "128", "--tile", "5x2", "--format", "png",
                                   "--vtt", vtt, Fixture.path("video/counter.\(container)")] + (exact ? ["--exact"] : ["--keyframe"]))
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError == "" || (!exact && run.standardError.contains("cells show the keyframe of the cell before")), "\(run.standardError)")
        let sheet = try DecodedPNG(path: folder.appendingPathComponent("board.sheet-1.png").path)
        #expect((sheet.width, sheet.height) == (640, 32))
        let numbers = (0..<10).map { Self.frameNumber(in: sheet, cell: $0, columns: 5) }
        if exact {
            #expect(numbers == [3, 9, 15, 21, 27, 33, 39, 45, 51, 57])
        } else {
            // FLV and Theora encoders place some keyframes of their own.
            let keyframes: [String: [Int]] = ["flv": [0, 0, 12, 12, 24, 32, 32, 44, 44, 56], "ogv": [0, 0, 12, 16, 16, 32, 32, 44, 48, 48]]
            #expect(numbers == keyframes[container] ?? [0, 0, 12, 12, 24, 24, 36, 36, 48, 48])
        }
    }

    static let ffmpeg = "/usr/bin/ffmpeg"

    /// Every frame of `video` as the ffmpeg CLI decodes it (turned upright by its display matrix),
    /// scaled by libswscale to `width`x`height` with the flags of a downscale: packed RGB.
    static func ffmpegFrames(_ video: String, width: Int, height: Int, input: [String] = [], map: [String] = []) throws -> [[UInt8]] {
        let run = try ChildProcess.run(ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin"] + input + ["-i", video] + map + [
                                                "-vf", "scale=\(width):\(height):flags=area+accurate_rnd+full_chroma_int+full_chroma_inp",
                                                "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        try #require(run.status == 0, "ffmpeg: \(String(decoding: run.standardError, as: UTF8.self))")
        let size = width * height * 3
        let bytes = [UInt8](run.standardOutput)
        try #require(bytes.count % size == 0 && !bytes.isEmpty)
        return stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<($0 + size)]) }
    }

    /// The largest difference of a cell of `sheet` from `frame` (packed RGB of the cell's size).
    static func difference(of sheet: DecodedPNG, rect: (x: Int, y: Int, width: Int, height: Int), from frame: [UInt8]) -> Int {
        var worst = 0
        for y in 0..<rect.height {
            for x in 0..<rect.width {
                for (channel, sample) in sheet.pixel(x: rect.x + x, y: rect.y + y).prefix(3).enumerated() {
                    worst = max(worst, abs(Int(sample) - Int(frame[(y * rect.width + x) * 3 + channel])))
                }
            }
        }
        return worst
    }

    /// A cell holds the frame the ffmpeg CLI decodes, scaled by ffmpeg to the cell's size (within 2
    /// levels): the counter's ten cells at 64x8 are the frames expected (read from their bits) and
    /// those frames' pixels; the quadrants stored on their side come upright in every cell, as
    /// ffmpeg's autorotation shows them.
    @Test(.enabled(if: try Requirement.tool(StoryboardTests.ffmpeg), "ffmpeg is not installed (scripts/bootstrap test installs it)"),
          arguments: [false, true])
    func cellsAreTheFramesFFmpegDecodes(exact: Bool) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let counter = Fixture.path("video/counter.mp4")
        let vtt = folder.appendingPathComponent("c.vtt").path
        let run = try ToolRun.run(["storyboard", "--count", "10", "--width", "64", "--tile", "5x2", "--format", "png", "--vtt", vtt, counter]
                                  + (exact ? ["--exact"] : ["--keyframe"]))
        #expect(run.status == 0, "\(run.standardError)")
        let sheet = try DecodedPNG(path: folder.appendingPathComponent("c.sheet-1.png").path)
        #expect((sheet.width, sheet.height) == (320, 16))
        let frames = try Self.ffmpegFrames(counter, width: 64, height: 8)
        #expect(frames.count == 60)
        let cues = try Self.cues(vtt)
        try #require(cues.count == 10)
        let numbers = cues.map { cue in
            (0..<8).reduce(0) { number, bit in sheet.pixel(x: cue.rect.x + bit * 8 + 4, y: cue.rect.y + 4)[0] > 128 ? number | (1 << bit) : number }
        }
        #expect(numbers == (exact ? [3, 9, 15, 21, 27, 33, 39, 45, 51, 57] : [0, 0, 12, 12, 24, 24, 36, 36, 48, 48]))
        for (cue, number) in zip(cues, numbers) where number < frames.count {
            #expect(cue.rect.width == 64 && cue.rect.height == 8)
            let worst = Self.difference(of: sheet, rect: cue.rect, from: frames[number])
            #expect(worst <= 2, "the cell at \(cue.rect) differs from ffmpeg's frame \(number) by \(worst) levels")
        }

        let quadrants = Fixture.path("video/quadrants-orientation6.mp4")
        let qvtt = folder.appendingPathComponent("q.vtt").path
        let turned = try ToolRun.run(["storyboard", "--count", "3", "--width", "48", "--tile", "2x2", "--format", "png", "--vtt", qvtt, quadrants]
                                     + (exact ? ["--exact"] : []))
        #expect(turned.status == 0, "\(turned.standardError)")
        let qsheet = try DecodedPNG(path: folder.appendingPathComponent("q.sheet-1.png").path)
        // Stored turned: cells of 48x32 upright, three in a 2x2 sheet of two rows.
        #expect((qsheet.width, qsheet.height) == (96, 64))
        let upright = try Self.ffmpegFrames(quadrants, width: 48, height: 32)
        let qcues = try Self.cues(qvtt)
        #expect(qcues.count == 3)
        for cue in qcues {
            #expect(cue.rect.width == 48 && cue.rect.height == 32)
            let worst = Self.difference(of: qsheet, rect: cue.rect, from: upright[0])
            #expect(worst <= 2, "the cell at \(cue.rect) differs from ffmpeg's upright frame by \(worst) levels")
        }
    }

    /// --from/--to: the count spread over the range only, each cell the exact frame at its cue's
    /// middle (at 25 fps, frame floor(25 t), read from the counter's bits), and --json's frames say
    /// those times, the times of the frames shown, and the cells' rects as the WebVTT file does.
    @Test func aRangeGivesItsFramesAndJSONSaysWhereEachIs() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let vtt = folder.appendingPathComponent("r.vtt").path
        let run = try ToolRun.run(["storyboard", "--count", "4", "--from", "1", "--to", "2", "--exact", "--width", "128", "--tile", "4x1",
                                   "--format", "png", "--json", "--vtt", vtt, Fixture.path("video/counter.mp4")])
        #expect(run.status == 0, "\(run.standardError)")
        let sheetPath = folder.appendingPathComponent("r.sheet-1.png").path
        let sheet = try DecodedPNG(path: sheetPath)
        let cues = try Self.cues(vtt)
        try #require(cues.count == 4)
        #expect(cues.map(\.start) == [1.0, 1.25, 1.5, 1.75] && cues.map(\.end) == [1.25, 1.5, 1.75, 2.0])
        let numbers = (0..<4).map { Self.frameNumber(in: sheet, cell: $0, columns: 4) }
        #expect(numbers == cues.map { Int(((($0.start + $0.end) / 2) * 25).rounded(.down)) })
        #expect(numbers == [28, 34, 40, 46])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let frames = try #require(report["frames"] as? [[String: Any]])
        try #require(frames.count == 4)
        for (index, frame) in frames.enumerated() {
            let cue = cues[index]
            #expect(frame["time"] as? Double == (cue.start + cue.end) / 2)
            #expect((frame["shown"] as? Double).map { abs($0 - Double(numbers[index]) / 25) < 1e-9 } == true, "\(frame)")
            #expect(frame["file"] as? String == sheetPath)
            #expect([frame["x"], frame["y"], frame["width"], frame["height"]].map { $0 as? Int }
                    == [cue.rect.x, cue.rect.y, cue.rect.width, cue.rect.height])
        }
    }

    /// --height fits cells to a height; --no-rotate keeps the stored picture (on its side: 21x32
    /// cells, not 48x32), as ffmpeg -noautorotate decodes it; --stream 1 takes the second video
    /// stream (a red 32x16), as ffmpeg's -map 0:v:1 does.
    @Test(.enabled(if: try Requirement.tool(StoryboardTests.ffmpeg), "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func heightNoRotateAndStreamAreWhatFFmpegShows() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let quadrants = Fixture.path("video/quadrants-orientation6.mp4")
        let cases: [(name: String, options: [String], video: String, size: (Int, Int), input: [String], map: [String])] = [
            ("upright", ["--height", "32"], quadrants, (48, 32), [], []),
            ("stored", ["--height", "32", "--no-rotate"], quadrants, (21, 32), ["-noautorotate"], []),
            ("second", ["--stream", "1", "--width", "32"], Fixture.path("video/two-streams.mkv"), (32, 16), [], ["-map", "0:v:1"]),
        ]
        for item in cases {
            let vtt = folder.appendingPathComponent("\(item.name).vtt").path
            let run = try ToolRun.run(["storyboard", "--count", "2", "--tile", "2x1", "--format", "png", "--vtt", vtt] + item.options + [item.video])
            #expect(run.status == 0, "\(item.name): \(run.standardError)")
            let sheet = try DecodedPNG(path: folder.appendingPathComponent("\(item.name).sheet-1.png").path)
            #expect((sheet.width, sheet.height) == (item.size.0 * 2, item.size.1), "\(item.name)")
            let frame = try #require(try Self.ffmpegFrames(item.video, width: item.size.0, height: item.size.1, input: item.input, map: item.map).first)
            for cue in try Self.cues(vtt) {
                #expect(cue.rect.width == item.size.0 && cue.rect.height == item.size.1)
                let worst = Self.difference(of: sheet, rect: cue.rect, from: frame)
                #expect(worst <= 2, "\(item.name): the cell at \(cue.rect) differs from ffmpeg's frame by \(worst) levels")
            }
        }
    }

    struct Cue {
        let start: Double
        let end: Double
        let file: String
        let rect: (x: Int, y: Int, width: Int, height: Int)
    }

    /// The cues of a WebVTT file as a WebVTT parser reads them (Debian's python3-webvtt).
    static func cues(_ path: String) throws -> [Cue] {
        let script = """
            import sys, webvtt
            for cue in webvtt.read(sys.argv[1]):
                print(cue.start_in_seconds, cue.end_in_seconds, cue.text.replace(' ', '%20'))
            """
        let run = try ChildProcess.run("/usr/bin/python3", ["-c", script, path])
        try #require(run.status == 0, "python3-webvtt could not read \(path)")
        let output = run.standardOutput
        return try String(decoding: output, as: UTF8.self).split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            let target = parts[2].split(separator: "#xywh=")
            let numbers = target[1].split(separator: ",").compactMap { Int($0) }
            try #require(numbers.count == 4)
            return Cue(start: Double(parts[0])!, end: Double(parts[1])!, file: String(target[0]),
                       rect: (numbers[0], numbers[1], numbers[2], numbers[3]))
        }
    }

    /// 25 frames over 5 sheets of 2x3: the cues follow one another without gaps, each names its
    /// sheet, and every rect lies inside its sheet.
    @Test func theWebVTTIndexCoversTheVideoAndEveryRectLiesInItsSheet() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("my clip.mp4")
        try FileManager.default.copyItem(atPath: Fixture.path("video/counter.mp4"), toPath: video.path)
        let run = try ToolRun.run(["storyboard", "--count", "25", "--tile", "2x3", "--format", "png", "--json", video.path])
        #expect(run.status == 0, "\(run.standardError)")
        let cues = try Self.cues(folder.appendingPathComponent("my clip.vtt").path)
        #expect(cues.count == 25)
        #expect(cues.first?.start == 0)
        #expect(abs((cues.last?.end ?? 0) - 2.4) < 0.001)
        for (cue, next) in zip(cues, cues.dropFirst()) { #expect(cue.end == next.start) }
        var sizes: [String: (Int, Int)] = [:]
        for (index, cue) in cues.enumerated() {
            #expect(cue.file == "my%20clip.sheet-\(index / 6 + 1).png")
            let name = cue.file.replacingOccurrences(of: "%20", with: " ")
            if sizes[name] == nil {
                let sheet = try DecodedPNG(path: folder.appendingPathComponent(name).path)
                sizes[name] = (sheet.width, sheet.height)
            }
            let (width, height) = sizes[name]!
            #expect(cue.rect.x >= 0 && cue.rect.y >= 0 && cue.rect.x + cue.rect.width <= width && cue.rect.y + cue.rect.height <= height)
            #expect((cue.rect.width, cue.rect.height) == (160, 20))
        }
        // The last sheet holds one frame: one cell, no empty rows.
        #expect(sizes["my clip.sheet-5.png"].map { [$0.0, $0.1] } == [160, 20])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect((report["files"] as? [String])?.count == 5)
        #expect((report["frames"] as? [[String: Any]])?.count == 25)
    }

    @Test func oneFileAFrameAndAURLBase() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["storyboard", "--every", "1s", "--tile", "none", "--vtt-base", "https://cdn.example/p",
                                   "--out-dir", folder.path, Fixture.path("video/counter.mkv")])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                == ["counter.1.jpg", "counter.2.jpg", "counter.3.jpg", "counter.vtt"])
        let text = try String(contentsOfFile: folder.appendingPathComponent("counter.vtt").path, encoding: .utf8)
        #expect(text == """
            WEBVTT

            00:00:00.000 --> 00:00:01.000
            https://cdn.example/p/counter.1.jpg

            00:00:01.000 --> 00:00:02.000
            https://cdn.example/p/counter.2.jpg

            00:00:02.000 --> 00:00:02.400
            https://cdn.example/p/counter.3.jpg

            """)
    }

    /// Sheets and their index appear together or not at all: a sheet in the way stops the run
    /// before anything is written.
    @Test func anExistingSheetStopsTheRunBeforeAnythingIsWritten() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let vtt = folder.appendingPathComponent("b.vtt").path
        try Data("keep".utf8).write(to: folder.appendingPathComponent("b.sheet-2.jpg"))
        let run = try ToolRun.run(["storyboard", "--count", "8", "--tile", "2x2", "--vtt", vtt, Fixture.path("video/counter.mp4")])
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(Fixture.path("video/counter.mp4")): output exists: \(folder.path)/b.sheet-2.jpg (use --overwrite to replace it)"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["b.sheet-2.jpg"])
        let again = try ToolRun.run(["storyboard", "--count", "8", "--tile", "2x2", "--overwrite", "--vtt", vtt, Fixture.path("video/counter.mp4")])
        #expect(again.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["b.sheet-1.jpg", "b.sheet-2.jpg", "b.vtt"])
    }

    @Test(arguments: [
        (["--count", "0"], "mediatool: --count takes 1 to 100000 frames, the most a storyboard holds, not 0. (see 'mediatool storyboard --help')"),
        (["--count", "100001"], "mediatool: --count takes 1 to 100000 frames, the most a storyboard holds, not 100001. (see 'mediatool storyboard --help')"),
        (["--every", "0"], "mediatool: The value '0' is invalid for '--every <time>': it takes a time above 0: seconds (10, 10s) or [[h:]m:]s (see 'mediatool storyboard --help')"),
        (["--count", "3", "--every", "1"], "mediatool: Give --count or --every, not both. (see 'mediatool storyboard --help')"),
        (["--tile", "0x3"], "mediatool: The value '0x3' is invalid for '--tile <CxR|none>' (see 'mediatool storyboard --help')"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        // A copy in a scratch folder: should parsing regress and the run go on, it writes there, not in Fixtures.
        let copy = try ScratchOutput("counter.mp4")
        try FileManager.default.copyItem(atPath: Fixture.path("video/counter.mp4"), toPath: copy.path)
        let run = try ToolRun.run(["storyboard"] + arguments + [copy.path], in: copy.folder)
        #expect(run.status == 64)
        #expect(run.errorLines == [message])
    }

    @Test func aBadVideoFailsAloneInABatch() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["storyboard", "--count", "4", "--out-dir", folder.path,
                                   Fixture.path("video/not-media.mp4"), Fixture.path("video/counter.mov")])
        #expect(run.status == 1)
        #expect(run.errorLines.first?.hasPrefix("mediatool: \(Fixture.path("video/not-media.mp4")): not a media file") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["counter.sheet-1.jpg", "counter.vtt"])
    }

    /// A link where a sheet goes (a name mediatool makes, not one the user gave) is never followed,
    /// even with --overwrite: what it points at is left alone, and nothing is written.
    @Test func aLinkInASheetsPlaceIsNotFollowed() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim.txt")
        try Data("keep".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("b.sheet-1.jpg").path, withDestinationPath: victim.path)
        let vtt = folder.appendingPathComponent("b.vtt").path
        let run = try ToolRun.run(["storyboard", "--count", "2", "--overwrite", "--vtt", vtt, Fixture.path("video/counter.mp4")])
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(Fixture.path("video/counter.mp4")): output is a symbolic link: \(folder.path)/b.sheet-1.jpg (only a regular file is ever replaced)"])
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep")
        #expect(!FileManager.default.fileExists(atPath: vtt))
    }

    /// A tile asking for a sheet larger than the format or memory allows is refused before any allocation.
    @Test func aSheetPastTheFormatsLimitIsRefused() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let vtt = folder.appendingPathComponent("big.vtt").path
        let run = try ToolRun.run(["storyboard", "--count", "10000", "--tile", "1000x1000", "--format", "webp", "--vtt", vtt,
                                   Fixture.path("video/counter.mp4")])
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(Fixture.path("video/counter.mp4")): a sheet would be 160000x200 pixels, past the 16383 a side (or 100 million pixels) the format and memory allow: give a smaller --tile or --width"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    static let chromium = "/usr/bin/chromium"

    /// Runs headless Chromium on a page; its standard output, and its log lines. Every run gets a
    /// virtual time budget: the page's loads, timers and script run to where it settles (or 3 s of
    /// virtual time) before the DOM is dumped or the screenshot taken, not whenever the real clock
    /// says the load ended; the run's own deadline stays ChildProcess's.
    static func chromium(_ arguments: [String]) throws -> (output: String, log: String) {
        let run = try ChildProcess.run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--force-color-profile=srgb",
                                                  "--hide-scrollbars", "--enable-logging=stderr", "--v=0",
                                                  "--virtual-time-budget=3000"] + arguments)
        return (String(decoding: run.standardOutput, as: UTF8.self), String(decoding: run.standardError, as: UTF8.self))
    }

    /// The page in a real browser: it loads without a console message, its track holds every cue,
    /// and a screenshot of page.html?t=T shows, in the preview box, the cell the WebVTT file names for T.
    @Test(.enabled(if: try Requirement.tool(chromium), "Chromium is not installed (scripts/bootstrap test installs it)"))
    func thePageShowsTheCellOfTheTimeAskedFor() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("clip.mp4")
        try FileManager.default.copyItem(atPath: Fixture.path("video/counter.mp4"), toPath: video.path)
        let page = folder.appendingPathComponent("pages/clip page.html")
        try FileManager.default.createDirectory(at: page.deletingLastPathComponent(), withIntermediateDirectories: true)
        let run = try ToolRun.run(["storyboard", "--count", "10", "--width", "128", "--tile", "3x2", "--format", "png",
                                   "--html", page.path, video.path])
        #expect(run.status == 0, "\(run.standardError)")
        let cues = try Self.cues(folder.appendingPathComponent("clip.vtt").path)
        let url = "file://" + page.path.replacingOccurrences(of: " ", with: "%20")

        let dom = try Self.chromium(["--dump-dom", url])
        #expect(dom.output.contains("<body data-track-cues=\"10\">"))
        #expect(!dom.log.contains("CONSOLE"), "\(dom.log)")

        for time in [0.3, 1.0, 2.3] {
            let shot = folder.appendingPathComponent("shot-\(time).png").path
            let capture = try Self.chromium(["--window-size=640,480", "--screenshot=\(shot)", url + "?t=\(time)"])
            #expect(!capture.log.contains("CONSOLE"), "\(capture.log)")
            let screen = try DecodedPNG(path: shot)
            let cue = try #require(cues.first { $0.start <= time && time < $0.end })
            let sheet = try DecodedPNG(path: folder.appendingPathComponent(cue.file).path)
            var differing = 0
            for y in 0..<cue.rect.height {
                for x in 0..<cue.rect.width where Array(screen.pixel(x: x, y: y).prefix(3)) != Array(sheet.pixel(x: cue.rect.x + x, y: cue.rect.y + y).prefix(3)) {
                    differing += 1
                }
            }
            #expect(differing == 0, "at \(time) s, \(differing) pixels of the preview differ from the cell \(cue.rect) of \(cue.file)")
        }
    }
}
