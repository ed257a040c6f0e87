import Foundation
import Testing
import TestSupport

@Suite struct ThumbnailTests {
    /// Runs `thumbnail` on a fixture into a scratch folder and reads the PNG back.
    static func thumbnail(_ fixture: String, _ options: [String] = []) throws -> (run: ToolRun, image: DecodedPNG?) {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.png").path
        let run = try ToolRun.run(["thumbnail"] + options + [Fixture.path("video/\(fixture)"), "-o", output])
        let image = FileManager.default.fileExists(atPath: output) ? try DecodedPNG(path: output) : nil
        return (run, image)
    }

    /// The colour a quadrant fixture shows at a point: red, green, blue or white.
    static func colourName(_ pixel: [UInt8]) -> String {
        if pixel.prefix(3).allSatisfy({ $0 > 200 }) { return "white" }
        let strongest = pixel.prefix(3).enumerated().max { $0.element < $1.element }!.offset
        return ["red", "green", "blue"][strongest]
    }

    /// The frame number the counter fixture shows: bit b is the block of 16 pixels at x = 16 b.
    static func frameNumber(_ image: DecodedPNG) -> Int {
        (0..<8).reduce(0) { number, bit in
            image.pixel(x: bit * 16 + 8, y: image.height / 2)[0] > 128 ? number | (1 << bit) : number
        }
    }

    @Test(arguments: 1...8)
    func everyOrientationComesOutUpright(orientation: Int) throws {
        let (run, image) = try Self.thumbnail("quadrants-orientation\(orientation).mp4", ["--at", "0"])
        #expect(run.status == 0 && run.standardError == "")
        let picture = try #require(image)
        #expect((picture.width, picture.height) == (96, 64))
        let quadrants = [(24, 16), (72, 16), (24, 48), (72, 48)].map { Self.colourName(picture.pixel(x: $0.0, y: $0.1)) }
        #expect(quadrants == ["red", "green", "blue", "white"])
    }

    @Test func noRotateKeepsTheStoredPicture() throws {
        // Stored turned a quarter counterclockwise, for a matrix that turns it clockwise.
        let picture = try #require(try Self.thumbnail("quadrants-orientation6.mp4", ["--at", "0", "--no-rotate"]).image)
        #expect((picture.width, picture.height) == (64, 96))
        let quadrants = [(16, 24), (48, 24), (16, 72), (48, 72)].map { Self.colourName(picture.pixel(x: $0.0, y: $0.1)) }
        #expect(quadrants == ["green", "white", "red", "blue"])
    }

    /// Frames are 40 ms long; keyframes every 12 frames (0.48 s); B-frames between.
    @Test(arguments: ["mp4", "mov", "mkv", "ts"], [
        ("0", 0), ("0.039", 0), ("0.04", 1), ("0.479", 11), ("0.48", 12), ("0.5", 12), ("0.7", 17),
        ("0.95", 23), ("0.96", 24), ("1:00.99", 59), ("0:01.19", 29), ("50%", 30), ("2.36", 59),
    ])
    func theExactFrameInEveryContainer(container: String, time: (String, Int)) throws {
        let (run, image) = try Self.thumbnail("counter.\(container)", ["--at", time.0])
        if time.0 == "1:00.99" {
            #expect(run.errorLines.count == 1 && run.errorLines[0].contains("past the end"))
        } else {
            #expect(run.standardError == "")
        }
        #expect(Self.frameNumber(try #require(image)) == time.1, "at \(time.0)")
    }

    @Test(arguments: ["mp4", "mkv", "ts"], [("0.3", 0), ("0.7", 12), ("1.0", 24), ("2.0", 48)])
    func keyframeModeGivesTheKeyframeAtOrBefore(container: String, time: (String, Int)) throws {
        let (run, image) = try Self.thumbnail("counter.\(container)", ["--keyframe", "--at", time.0])
        #expect(run.status == 0)
        #expect(Self.frameNumber(try #require(image)) == time.1)
    }

    @Test func aTimePastTheEndGivesTheLastFrameAndAWarning() throws {
        let (run, image) = try Self.thumbnail("counter.mp4", ["--at", "10"])
        #expect(run.status == 0)
        #expect(run.errorLines == [
            "mediatool: warning: \(Fixture.path("video/counter.mp4")): 10 s is past the end: wrote the last frame, at 2.36 s",
        ])
        #expect(Self.frameNumber(try #require(image)) == 59)
    }

    static let bars: [[UInt8]] = [
        [191, 191, 191], [191, 191, 0], [0, 191, 191], [0, 191, 0], [191, 0, 191], [191, 0, 0], [0, 0, 191], [16, 16, 16],
    ]

    @Test(arguments: [
        "bars-bt601-h264.mp4", "bars-bt709-h264.mp4", "bars-bt709-full-h264.mp4", "bars-bt709-hevc.mp4",
        "bars-bt2020-10bit-hevc.mkv", "bars-bt709-vp9.webm", "bars-bt709-prores.mov",
    ])
    /// The README: "Colour bars of known RGB come back within 1 level" (at each bar's centre: 4:2:0
    /// and 4:2:2 chroma blur the edges).
    func colourBarsWithinOneLevel(fixture: String) throws {
        let (run, image) = try Self.thumbnail(fixture, ["--at", "0"])
        #expect(run.status == 0)
        let picture = try #require(image)
        #expect(picture.channels == 3)
        for (index, expected) in Self.bars.enumerated() {
            let found = picture.pixel(x: index * 16 + 8, y: 16)
            let error = zip(found, expected).map { abs(Int($0) - Int($1)) }.max()!
            #expect(error <= 1, "bar \(index): \(found), expected \(expected)")
        }
    }

    @Test func anamorphicPixelsAreMadeSquare() throws {
        let picture = try #require(try Self.thumbnail("anamorphic.mp4").image)
        #expect((picture.width, picture.height) == (1024, 576))
        // The red box covers the top-left quarter of the stored picture: the same share of the shown one.
        #expect(Self.colourName(picture.pixel(x: 500, y: 280)) == "red")
        #expect(Self.colourName(picture.pixel(x: 524, y: 280)) == "white")
    }

    @Test(arguments: ["alpha-prores4444.mov", "alpha-vp9.webm"])
    func alphaGivesRGBA(fixture: String) throws {
        let picture = try #require(try Self.thumbnail(fixture).image)
        #expect(picture.channels == 4)
        let pixel = picture.pixel(x: 16, y: 16)
        #expect(pixel[0] >= 250 && pixel[1] <= 3 && pixel[2] <= 3)
        #expect(abs(Int(pixel[3]) - 128) <= 2)
    }

    @Test(arguments: [
        (["--width", "64"], "counter.mp4", 64, 8), (["--height", "4"], "counter.mp4", 32, 4),
        (["--width", "64", "--height", "4"], "counter.mp4", 32, 4),
        (["--width", "32"], "quadrants-orientation6.mp4", 32, 21), (["--height", "48"], "quadrants-orientation5.mp4", 72, 48),
    ])
    func sizesFitInsideAndKeepTheAspect(options: [String], fixture: String, width: Int, height: Int) throws {
        let picture = try #require(try Self.thumbnail(fixture, options + ["--at", "0"]).image)
        #expect((picture.width, picture.height) == (width, height))
    }

    @Test(arguments: [
        ("audio-only.m4a", "no video stream"),
        // Text named .mp4 is said to be no video (FFmpeg tried MP4 by the name: "moov atom not
        // found"); a file that is MP4 gets FFmpeg's own cause; one wording for an empty file.
        ("not-media.mp4", "not a media file FFmpeg can open: its bytes are of no format FFmpeg knows: it is no video, sound or picture"),
        ("empty.mp4", "an empty file"),
        ("truncated-no-index.mp4", "not a media file FFmpeg can open: moov atom not found"),
        ("missing.mp4", "cannot open: No such file or directory"),
    ])
    func badInputsFailInOneLineWithNoOutput(fixture: String, cause: String) throws {
        let (run, image) = try Self.thumbnail(fixture)
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(Fixture.path("video/\(fixture)")): \(cause)"])
        #expect(image == nil)
    }

    @Test func aTruncatedFileGivesItsLastWholeFrame() throws {
        let (run, image) = try Self.thumbnail("truncated.mkv", ["--at", "2"])
        #expect(run.status == 0)
        #expect(run.errorLines.count == 1 && run.errorLines[0].contains("past the end"))
        let frame = Self.frameNumber(try #require(image))
        #expect(frame > 0 && frame < 59)
    }

    @Test func outputsGoBesideInputsOrIntoAFolderAndAreNotReplaced() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mp4").path
        try FileManager.default.copyItem(atPath: Fixture.path("video/counter.mp4"), toPath: clip)
        let bad = Fixture.path("video/not-media.mp4")

        let beside = try ToolRun.run(["thumbnail", clip, bad])
        #expect(beside.status == 1)
        #expect(beside.errorLines.count == 3)
        #expect(beside.errorLines.first?.hasPrefix("mediatool: \(bad): ") == true)
        #expect(beside.errorLines.dropFirst().first?.hasPrefix("mediatool: summary: 1 ok, 1 failed, 0 skipped of 2 in ") == true)
        #expect(beside.errorLines.last == "mediatool: failed: \(bad)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("clip.thumb.png").path))

        let again = try ToolRun.run(["thumbnail", clip])
        #expect(again.status == 1)
        #expect(again.errorLines == ["mediatool: \(clip): output exists: \(folder.path)/clip.thumb.png (use --overwrite to replace it)"])
        #expect(try ToolRun.run(["thumbnail", "--overwrite", clip]).status == 0)

        let thumbs = folder.appendingPathComponent("thumbs").path
        try FileManager.default.createDirectory(atPath: thumbs, withIntermediateDirectories: false)
        let intoFolder = try ToolRun.run(["thumbnail", "--format", "jpeg", "--out-dir", thumbs, clip, Fixture.path("video/counter.mkv")])
        #expect(intoFolder.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: thumbs).sorted() == ["clip.thumb.jpg", "counter.thumb.jpg"])
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: thumbs + "/clip.thumb.jpg"))
        #expect(jpeg.prefix(2) == Data([0xFF, 0xD8]) && jpeg.suffix(2) == Data([0xFF, 0xD9]))
        // Nothing else: no temporaries left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["clip.mp4", "clip.thumb.png", "thumbs"])
    }

    @Test func theFormatFollowsTheOutputExtension() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("poster.JPG").path
        #expect(try ToolRun.run(["thumbnail", Fixture.path("video/counter.mp4"), "-o", output]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)).prefix(3) == Data([0xFF, 0xD8, 0xFF]))
    }

    @Test(arguments: [
        ["--at", "-1"], ["--at", "1:75"], ["--at", "abc"], ["--at", "150%"], ["--width", "0"], ["--quality", "0"],
        ["--png-compression", "10"], ["-o", "x.png", "a.mp4"], ["-"],
    ])
    func usageErrorsExit64(options: [String]) throws {
        // A copy in a scratch folder: should parsing regress and the run go on, it writes there, not in Fixtures.
        let copy = try ScratchOutput("counter.mp4")
        try FileManager.default.copyItem(atPath: Fixture.path("video/counter.mp4"), toPath: copy.path)
        #expect(try ToolRun.run(["thumbnail"] + options + [copy.path], in: copy.folder).status == 64)
    }
}

/// Options users rely on, each against a reference mediatool did not make.
@Suite struct ThumbnailOptionTests {
    /// No --at is --at 10%: the counter is 2.4 s long, so the frame at 0.24 s, number 6.
    @Test func theDefaultTimeIsTenPercent() throws {
        let (run, image) = try ThumbnailTests.thumbnail("counter.mp4")
        #expect(run.status == 0 && run.errorLines == [])
        #expect(ThumbnailTests.frameNumber(try #require(image)) == 6)
    }

    /// A raw elementary stream and a Matroska file without Cues have no known duration, nor has a
    /// pipe: a percentage asked for is an error naming why, and nothing is written (the default
    /// one falls back to the first frame: RawStreamThumbnailTests).
    @Test func aPercentageWithoutADurationIsAnError() throws {
        for fixture in ["counter.m2v", "counter-nocues.mkv"] {
            let (run, image) = try ThumbnailTests.thumbnail(fixture, ["--at", "50%"])
            #expect(run.status == 1)
            #expect(run.errorLines == ["mediatool: \(Fixture.path("video/\(fixture)")): the duration is unknown, so a percentage cannot be placed: give a time in seconds"])
            #expect(image == nil)
        }
        let scratch = try ScratchOutput("piped.png")
        let piped = try ToolRun.run(["thumbnail", "--at", "50%", "-", "-o", scratch.path], input: try Fixture.data("video/counter.m2v"))
        #expect(piped.status == 1)
        #expect(piped.errorLines == ["mediatool: <stdin>: the duration is unknown, so a percentage cannot be placed: give a time in seconds"])
        #expect(!FileManager.default.fileExists(atPath: scratch.path))
    }

    /// Upscaling (128x16 to 256x32) is libswscale's bicubic, the same as the ffmpeg CLI's scale filter
    /// with those flags gives for the frame at 0.24 s.
    @Test(.enabled(if: try Requirement.tool(StoryboardTests.ffmpeg), "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func upscalingIsWhatFFmpegsBicubicGives() throws {
        let (run, image) = try ThumbnailTests.thumbnail("counter.mp4", ["--width", "256"])
        #expect(run.status == 0 && run.errorLines == [])
        let picture = try #require(image)
        #expect((picture.width, picture.height, picture.channels) == (256, 32, 3))
        let ffmpeg = try ChildProcess.run(StoryboardTests.ffmpeg, [
            "-hide_banner", "-loglevel", "error", "-nostdin", "-ss", "0.24", "-i", Fixture.path("video/counter.mp4"), "-frames:v", "1",
            "-vf", "scale=256:32:flags=bicubic+accurate_rnd+full_chroma_int+full_chroma_inp", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        #expect(ffmpeg.status == 0)
        let reference = [UInt8](ffmpeg.standardOutput)
        try #require(reference.count == picture.bytes.count)
        let worst = zip(picture.bytes, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 2, "\(worst) levels from ffmpeg's bicubic")
    }

    static let identify = "/usr/bin/identify"

    /// --quality sets the JPEG's quantisation tables: ImageMagick's estimate from the tables
    /// (identify %Q) is the quality asked for, and 90 when none is.
    @Test(.enabled(if: try Requirement.tool(identify), "ImageMagick is not installed (scripts/bootstrap test installs it)"),
          arguments: [("37", "37"), ("100", "100"), (nil, "90")] as [(String?, String)])
    func qualityIsTheJPEGsQuality(quality: String?, expected: String) throws {
        let scratch = try ScratchOutput("q.jpg")
        let run = try ToolRun.run(["thumbnail"] + (quality.map { ["--quality", $0] } ?? []) + [Fixture.path("video/counter.mp4"), "-o", scratch.path])
        #expect(run.status == 0 && run.errorLines == [])
        let estimate = try ChildProcess.run(Self.identify, ["-format", "%Q", scratch.path])
        #expect(estimate.status == 0)
        #expect(String(decoding: estimate.standardOutput, as: UTF8.self) == expected)
    }
}
