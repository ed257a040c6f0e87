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
    }
}
