import Foundation
import Testing
import TestSupport

/// The containers and codecs the real-world corpus found wrong (AVI, FLV, MPEG program
/// and elementary streams, Ogg Theora, Matroska without Cues), each as the counter clip: 60 frames
/// at 25 fps, each showing its own number.
@Suite struct ContainerThumbnailTests {
    static let containers = ["counter.avi", "counter.flv", "counter.mpg", "counter.m2v", "counter.ogv", "counter-nocues.mkv"]

    /// Times and the frame on screen at each: the last frame that starts at or before it. 0.059 s
    /// is late in frame 1 (0.04 to 0.08): rounding to the nearest tick gave frame 2 where a tick is
    /// a frame (AVI, Ogg).
    static let times: [(String, Int)] = [
        ("0", 0), ("0.039", 0), ("0.04", 1), ("0.059", 1), ("0.079", 1), ("0.5", 12), ("0.7", 17),
        ("0.99", 24), ("1.0", 25), ("1.3", 32), ("2.0", 50), ("2.39", 59),
    ]

    @Test(arguments: containers)
    func theExactFrameIsTheOneOnScreen(container: String) throws {
        for (time, frame) in Sanitized.sample(Self.times) {
            let (run, image) = try ThumbnailTests.thumbnail(container, ["--at", time])
            #expect(run.status == 0 && run.standardError == "", "\(container) at \(time): \(run.standardError)")
            #expect(ThumbnailTests.frameNumber(try #require(image)) == frame, "\(container) at \(time)")
        }
    }

    /// The keyframes of each clip, as ffprobe lists them (the MPEG-2 and MPEG-4 encoders end on an
    /// intra frame; FLV1 and Theora place some of their own).
    static let keyframes: [String: [Int]] = [
        "counter.avi": [0, 12, 24, 36, 48, 59], "counter.mpg": [0, 12, 24, 36, 48, 59], "counter.m2v": [0, 12, 24, 36, 48, 59],
        "counter.flv": [0, 12, 24, 32, 44, 56], "counter.ogv": [0, 12, 16, 28, 32, 44, 48], "counter-nocues.mkv": [0, 12, 24, 36, 48],
    ]

    @Test(arguments: containers)
    func theKeyframeIsTheLastOneAtOrBeforeTheTime(container: String) throws {
        for (time, frame) in Sanitized.sample(Self.times) {
            let expected = Self.keyframes[container]!.last { $0 <= frame }!
            let (run, image) = try ThumbnailTests.thumbnail(container, ["--keyframe", "--at", time])
            // No spurious "past the end": every time here is inside the clip.
            #expect(run.status == 0 && run.standardError == "", "\(container) at \(time): \(run.standardError)")
            #expect(ThumbnailTests.frameNumber(try #require(image)) == expected, "\(container) at \(time)")
        }
    }

    @Test(arguments: [("0.72", 18), ("0.8", 20), ("0.88", 22)])
    func aFrameFalselyIndexedAsAKeyframeIsNotDecodedFrom(time: String, frame: Int) throws {
        // Frame 18 is a P-frame the index calls a keyframe: decoded from there, the picture is grey.
        let (run, image) = try ThumbnailTests.thumbnail("false-keyframe.mp4", ["--at", time])
        #expect(run.status == 0 && run.standardError == "")
        let picture = try #require(image)
        #expect(ThumbnailTests.frameNumber(picture) == frame)
        #expect((0..<8).allSatisfy { picture.pixel(x: $0 * 16 + 8, y: 8)[0] < 40 || picture.pixel(x: $0 * 16 + 8, y: 8)[0] > 215 })
        let keyframe = try ThumbnailTests.thumbnail("false-keyframe.mp4", ["--keyframe", "--at", time])
        #expect(ThumbnailTests.frameNumber(try #require(keyframe.image)) == 12)
    }

    @Test func aPictureInsideItsCodedFrameIsCutExactly() throws {
        // Theora's picture starts 4 columns into its 144-column frame; 128 columns are shown.
        let (run, image) = try ThumbnailTests.thumbnail("theora-offset.ogv", ["--at", "0.2"])
        #expect(run.status == 0)
        let picture = try #require(image)
        #expect((picture.width, picture.height) == (128, 16))
        // The red border around the picture must not show: its first column is the counter's white block.
        #expect(picture.pixel(x: 0, y: 8)[1] > 128)
        #expect(ThumbnailTests.frameNumber(picture) == 5)
    }

    /// AVI's last keyframe is stored before the B-frames it ends and has no time of its own: a seek
    /// that lands on it says nothing of when it shows (it was taken for the frame asked for, and
    /// frame 59 came out at 2.28 s), so the search starts from the keyframe before.
    @Test(arguments: [("2.2", 55, 48), ("2.28", 57, 48), ("2.35", 58, 48)])
    func theEndOfAnAVIIsTimedRight(time: String, frame: Int, keyframe: Int) throws {
        let (exact, exactImage) = try ThumbnailTests.thumbnail("counter.avi", ["--at", time])
        #expect(exact.status == 0 && exact.standardError == "")
        #expect(ThumbnailTests.frameNumber(try #require(exactImage)) == frame)
        let (fast, fastImage) = try ThumbnailTests.thumbnail("counter.avi", ["--keyframe", "--at", time])
        #expect(fast.status == 0)
        #expect(ThumbnailTests.frameNumber(try #require(fastImage)) == keyframe)
    }
}

/// A raw stream states no duration, and the default --at 10% failed ("the
/// duration is unknown"). Its first frame is shown, with a warning, as ffmpegthumbnailer does; and
/// for `--at auto`. A share the user asks for (`--at 50%`) stays an error (ThumbnailOptionTests).
@Suite struct RawStreamThumbnailTests {
    @Test(.enabled(if: try Requirement.tool(StoryboardTests.ffmpeg), "ffmpeg is not installed (scripts/bootstrap test installs it)"),
          arguments: [[], ["--at", "auto"]])
    func aRawStreamShowsItsFirstFrame(options: [String]) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = Fixture.path("video/counter.m2v")
        let output = folder.appendingPathComponent("t.png").path
        let run = try ToolRun.run(["thumbnail"] + options + [input, "-o", output])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.errorLines.count == 1 && run.errorLines[0].hasPrefix("mediatool: warning: \(input): the duration is unknown (a raw stream?): the first frame is shown"),
                "\(run.standardError)")
        let picture = try DecodedPNG(path: output)
        let first = try #require(try StoryboardTests.ffmpegFrames(input, width: picture.width, height: picture.height).first)
        var ours: [UInt8] = []
        for y in 0..<picture.height { for x in 0..<picture.width { ours += picture.pixel(x: x, y: y).prefix(3) } }
        #expect(peakSignalToNoise(ours, first) > 30)
    }
}
