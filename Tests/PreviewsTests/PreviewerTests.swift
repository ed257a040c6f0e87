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
        // Pieces centred at 0.6 and 1.8 s: 0.4 to 0.8 and 1.6 to 2.0, a frame every 0.1 s.
        #expect(preview.schedule.frames.map(\.time) == [0.4, 0.5, 0.6, 0.7, 1.6, 1.7, 1.8, 1.9])
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("p.webp").path
        try Data(preview.bytes).write(to: URL(fileURLWithPath: path))
        let info = try AnimatedWebP.info(path)
        #expect(info.frames == 8 && info.loopsForever && info.milliseconds == Array(repeating: 100, count: 8), "\(info)")
        let numbers = try AnimatedWebP.frames(of: path, into: folder).map { Self.frameNumber(try DecodedPNG(path: $0)) }
        // The frame on screen at each time: 0.4 s is frame 10, 0.5 s frame 12 (12.5), ...
        #expect(numbers == [10, 12, 15, 17, 40, 42, 45, 47])
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
