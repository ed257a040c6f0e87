import Foundation
import Testing
import TestSupport

/// WebP pictures crop as a person sees them, through the orientation of their EXIF chunk.
@Suite struct WebPCropTests {
    /// Lossless, so every orientation gives the upright picture's pixels exactly, odd origins included.
    @Test(arguments: 1...8)
    func everyOrientationCropsToTheUprightPixels(orientation: Int) throws {
        let scratch = try ScratchOutput("crop.png")
        let run = try ToolRun.run(["crop", "--rect", "3,5,40,31", Fixture.path("webp/orientation\(orientation).webp"), "-o", scratch.path])
        #expect(run.status == 0 && run.errorLines == [])
        let picture = try DecodedPNG(path: scratch.path)
        #expect(picture.width == 40 && picture.height == 31)
        #expect(picture.bytes == (try Fixture.uprightRect(x: 3, y: 5, width: 40, height: 31)))
    }

    /// Lossy WebP: chroma upsampled and blocks filtered at a crop's edges exactly as in a whole
    /// decoding (dwebp's, of the same file), odd origins and a 2x2 rect included.
    @Test(arguments: [(0, 0, 61, 41), (1, 1, 30, 20), (17, 9, 21, 31), (30, 20, 2, 2), (45, 3, 16, 38)])
    func lossyCropsMatchTheWholeDecoding(x: Int, y: Int, width: Int, height: Int) throws {
        let scratch = try ScratchOutput("crop.png")
        let run = try ToolRun.run(["crop", "--rect", "\(x),\(y),\(width),\(height)", Fixture.path("webp/lossy.webp"), "-o", scratch.path])
        #expect(run.status == 0 && run.errorLines == [])
        // P6 61 41 255, then the samples.
        let ppm = [UInt8](try Fixture.data("webp/lossy.expected.ppm"))
        let samples = Array(ppm.suffix(61 * 41 * 3))
        #expect(try DecodedPNG(path: scratch.path).bytes == Fixture.rect(of: samples, pictureWidth: 61, bytesPerPixel: 3, x: x, y: y, width: width, height: height))
    }

    @Test func anAnimationGivesItsFirstFrameWithAWarning() throws {
        let scratch = try ScratchOutput("crop.png")
        let source = Fixture.path("webp/animated.webp")
        let run = try ToolRun.run(["crop", "--rect", "3,5,40,31", source, "-o", scratch.path])
        #expect(run.status == 0)
        #expect(run.errorLines == ["mediatool: warning: \(source): animated WebP: its first frame was read"])
        #expect(try DecodedPNG(path: scratch.path).bytes == (try Fixture.uprightRect(x: 3, y: 5, width: 40, height: 31)))
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
