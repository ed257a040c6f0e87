import Foundation
import Testing
import TestSupport

/// Issue 13: WebP pictures crop as a person sees them, through the orientation of their EXIF chunk.
@Suite struct WebPCropTests {
    static let uprightWidth = 61

    /// The rect of the upright picture (pictures/upright.rgb), as RGB bytes.
    static func upright(x: Int, y: Int, width: Int, height: Int) throws -> [UInt8] {
        let whole = [UInt8](try Fixture.data("pictures/upright.rgb"))
        var rect: [UInt8] = []
        for row in y..<(y + height) {
            let start: Int = (row * uprightWidth + x) * 3
            rect += whole[start..<(start + width * 3)]
        }
        return rect
    }

    /// Lossless, so every orientation gives the upright picture's pixels exactly, odd origins included.
    @Test(arguments: 1...8)
    func everyOrientationCropsToTheUprightPixels(orientation: Int) throws {
        let scratch = try ScratchOutput("crop.png")
        let run = try ToolRun.run(["crop", "--rect", "3,5,40,31", Fixture.path("webp/orientation\(orientation).webp"), "-o", scratch.path])
        #expect(run.status == 0 && run.errorLines == [])
        let picture = try DecodedPNG(path: scratch.path)
        #expect(picture.width == 40 && picture.height == 31)
        #expect(picture.bytes == (try Self.upright(x: 3, y: 5, width: 40, height: 31)))
    }

    @Test func anAnimationGivesItsFirstFrameWithAWarning() throws {
        let scratch = try ScratchOutput("crop.png")
        let source = Fixture.path("webp/animated.webp")
        let run = try ToolRun.run(["crop", "--rect", "3,5,40,31", source, "-o", scratch.path])
        #expect(run.status == 0)
        #expect(run.errorLines == ["mediatool: warning: \(source): animated WebP: its first frame was cropped"])
        #expect(try DecodedPNG(path: scratch.path).bytes == (try Self.upright(x: 3, y: 5, width: 40, height: 31)))
    }

    /// WebP to WebP keeps the EXIF chunk, its orientation made 1.
    @Test func webpToWebPKeepsTheExifChunk() throws {
        let scratch = try ScratchOutput("crop.webp")
        let run = try ToolRun.run(["crop", "--lossless", "--rect", "3,5,40,31", Fixture.path("webp/orientation6.webp"), "-o", scratch.path])
        #expect(run.status == 0 && run.errorLines == [])
        let exif = try #require(CropMetadataTests.webpChunk("EXIF", in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch.path)))))
        #expect(exif.starts(with: Array("MM".utf8)))
        #expect(CropMetadataTests.containsBytes(exif, [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]))
    }
}
