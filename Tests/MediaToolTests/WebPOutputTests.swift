import CWebP
import Foundation
import Testing
import TestSupport

/// WebP output, lossy and lossless, chosen by name or --format like the others.
@Suite struct WebPOutputTests {
    /// The file decoded by libwebp to RGBA.
    static func decoded(_ path: String) throws -> (width: Int, height: Int, rgba: [UInt8]) {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var width: Int32 = 0, height: Int32 = 0
        let pixels = data.withUnsafeBufferPointer { WebPDecodeRGBA($0.baseAddress, $0.count, &width, &height) }
        let decoded = try #require(pixels)
        defer { WebPFree(decoded) }
        return (Int(width), Int(height), Array(UnsafeBufferPointer(start: decoded, count: Int(width * height) * 4)))
    }

    @Test func losslessWebPKeepsEveryPixelAndAlpha() throws {
        let scratch = try ScratchOutput("out.webp")
        let output = scratch.path
        let run = try ToolRun.run(["crop", "--lossless", "--rect", "0,0,7,5", Fixture.path("pictures/rgba8.png"), "-o", output])
        #expect(run.status == 0 && run.errorLines == [])
        let (width, height, rgba) = try Self.decoded(output)
        #expect((width, height) == (7, 5))
        #expect(rgba == [UInt8](try Fixture.data("pictures/rgba8.raw")))
    }

    @Test func aThumbnailAsLossyWebPIsTheFrame() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("thumb")
        let run = try ToolRun.run(["thumbnail", "--format", "webp", "--at", "1.0", Fixture.path("video/counter.mp4"), "-o", output.path])
        #expect(run.status == 0)
        let data = [UInt8](try Data(contentsOf: output))
        #expect(Array(data[0..<4]) == Array("RIFF".utf8) && Array(data[8..<12]) == Array("WEBP".utf8))
        let (width, height, rgba) = try Self.decoded(output.path)
        #expect((width, height) == (128, 16))
        // Frame 25: blocks 0, 3 and 4 white.
        let frame = (0..<8).reduce(0) { $0 | (rgba[(8 * width + $1 * 16 + 8) * 4] > 128 ? 1 << $1 : 0) }
        #expect(frame == 25)
    }
}
