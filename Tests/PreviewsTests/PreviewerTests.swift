import FileIO
import Foundation
import Previews
import Testing
import TestSupport

@Suite struct PreviewerTests {
    /// The counter fixture: 2.4 s at 25 fps, 128x16, its frame number in eight blocks of 16 pixels.
    static func frameNumber(_ picture: DecodedPNG) -> Int {
        (0..<8).reduce(0) { number, bit in picture.pixel(x: bit * 16 + 8, y: picture.height / 2)[0] > 128 ? number | (1 << bit) : number }
    }

    static func preview(_ options: PreviewOptions) throws -> Preview {
        try Previewer(options: options).makePreview(from: InputFile(path: RepositoryFixtures.path("video/counter.mp4")))
    }

    static var counterOptions: PreviewOptions {
        var options = PreviewOptions()
        options.segments = 2
        options.segmentLength = 0.4
        options.maxWidth = nil
        options.quality = 90
        return options
    }

    /// Each frame of the animated WebP, as Pillow composites it (libwebp's demuxer: a frame stores
    /// only what changed), shows the video's frame at its time; webpmux lists the durations.
    @Test(.enabled(if: try Requirement.tool("/usr/bin/webpmux") && Requirement.tool("/usr/bin/python3")))
    func theFramesAreTheVideoSFramesAtTheirTimes() throws {
        let preview = try Self.preview(Self.counterOptions)
        #expect((preview.width, preview.height) == (128, 16))
        // Pieces of 0.4 s in each half, on the keyframes (every 12 frames) nearest 0.4 and 1.6 s.
        #expect(preview.schedule.frames.map(\.time) == [0.48, 0.58, 0.68, 0.78, 1.44, 1.54, 1.64, 1.74])
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("p.webp").path
        try Data(preview.bytes).write(to: URL(fileURLWithPath: path))
        let info = try AnimatedWebP.info(path)
        #expect(info.frames == 8 && info.loopsForever && info.milliseconds == Array(repeating: 100, count: 8), "\(info)")
        let numbers = try AnimatedWebP.frames(of: path, into: folder).map { Self.frameNumber(try DecodedPNG(path: $0)) }
        // The frame on screen at each time: 0.48 s is frame 12, 0.58 s frame 14 (14.5), ...
        #expect(numbers == [12, 14, 17, 19, 36, 38, 41, 43])
    }

    /// The later pieces decoded in a second pass side by side (two threads or more), or after the
    /// first when they would hold too much memory ahead of it, give the file one pass gives, byte
    /// for byte.
    @Test func twoPassesSideBySideGiveWhatOnePassGives() throws {
        var options = Self.counterOptions
        options.segments = 4
        options.segmentLength = 0.2
        options.threads = 1
        let onePass = try Self.preview(options)
        options.threads = 2
        let twoPasses = try Self.preview(options)
        #expect(onePass.schedule.segments.count == 4 && onePass.frameCount == 8)
        #expect(twoPasses.bytes == onePass.bytes)
        // 4 frames of 6 KiB ahead, and an eighth of 160 KB to hold them (beside the decoding's 32
        // KB, the encoder's 72 and the 30 of the 5 frames its thread holds): the second pass
        // stops, and what it left is decoded after the first.
        options.limits.maxMemory = 160_000
        #expect(try Self.preview(options).bytes == onePass.bytes)
    }

    /// A file cut short before its later pieces (its index first, so that it opens): the second
    /// pass finds none of its times, and the preview ends at the last frame as one pass's does
    /// (it failed with "no decodable video frame").
    @Test(.enabled(if: try Requirement.tool("/usr/bin/ffmpeg"), "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func aFileCutShortBeforeTheLaterPiecesEndsAsOnePassEndsIt() throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("faststart.mp4").path
        let made = try ChildProcess.run("/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-i",
                                                            RepositoryFixtures.path("video/counter.mp4"), "-c", "copy",
                                                            "-movflags", "+faststart", whole])
        try #require(made.status == 0, "\(String(decoding: made.standardError, as: UTF8.self))")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = folder.appendingPathComponent("cut.mp4").path
        try bytes.prefix(bytes.count * 7 / 10).write(to: URL(fileURLWithPath: cut))
        var options = Self.counterOptions
        options.segments = 4
        options.segmentLength = 0.2
        options.threads = 1
        let onePass = try Previewer(options: options).makePreview(from: InputFile(path: cut))
        options.threads = 2
        let twoPasses = try Previewer(options: options).makePreview(from: InputFile(path: cut))
        #expect(onePass.frameCount < onePass.schedule.frames.count)
        #expect(onePass.warnings.contains { $0.hasPrefix("the video ends before") })
        #expect(twoPasses.bytes == onePass.bytes)
        #expect(twoPasses.warnings == onePass.warnings)
    }

    /// Matroska reads its cues at the first seek: the pieces start on the same keyframes as the MP4's.
    @Test func matroskaPiecesStartOnTheirKeyframesToo() throws {
        let preview = try Previewer(options: Self.counterOptions).makePreview(from: InputFile(path: RepositoryFixtures.path("video/counter.mkv")))
        #expect(preview.schedule.segments.map(\.start) == [0.48, 1.44])
    }

    /// Frames past 4K's pixels are refused before an encoder holds several of them.
    @Test func framesPastTheLargestAreRefused() throws {
        var options = Self.counterOptions
        options.largestFramePixels = 128 * 16 - 1
        #expect(throws: PreviewError.framesTooLarge(width: 128, height: 16)) { try Self.preview(options) }
    }

    @Test func maxBytesLowersTheQualityOrSaysItCannot() throws {
        var options = Self.counterOptions
        options.maxWidth = 320
        options.quality = 90
        let full = try Self.preview(options)
        options.maxBytes = full.bytes.count - 1
        let smaller = try Self.preview(options)
        #expect(smaller.bytes.count < full.bytes.count && smaller.quality < 90)
        #expect(smaller.warnings.contains { $0.hasPrefix("encoded at quality") })
        options.maxBytes = 100
        #expect(throws: PreviewError.self) { try Self.preview(options) }
        // The frames kept for the second tries are counted against the run's memory with the
        // decoding and the encoder, and named: 128x16 frames of RGB, 21 of them, the WebP encoder's
        // 36 bytes a pixel and the 5 frames its thread holds, the decoding's 16 bytes a pixel of
        // the coded frame, and an eighth of the memory for the second pass's frames.
        options.maxWidth = nil
        options.limits.maxMemory = 100_000
        let frames = full.frameCount
        let needed = frames * 128 * 16 * 3 + 128 * 16 * (36 + 5 * 3) + 128 * 16 * 16 + 100_000 / 8
        #expect(throws: PreviewError.overMemory(needed: needed, limit: 100_000, keepsFrames: true)) { try Self.preview(options) }
    }
}
