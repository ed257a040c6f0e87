import Foundation
import FileIO
import PNGCodec
import Testing
import TestSupport

/// Issue 13: TIFF pictures crop as a person sees them (tag 274), whatever their layout and compression.
@Suite struct TIFFCropTests {
    static func crop(_ fixture: String) throws -> (run: ToolRun, scratch: ScratchOutput) {
        let scratch = try ScratchOutput("crop.png")
        return (try ToolRun.run(["crop", "--rect", "3,5,40,31", Fixture.path("tiff/\(fixture)"), "-o", scratch.path]), scratch)
    }

    @Test(arguments: 1...8)
    func everyOrientationCropsToTheUprightPixels(orientation: Int) throws {
        let (run, scratch) = try Self.crop("orientation\(orientation).tif")
        #expect(run.status == 0 && run.errorLines == [])
        #expect(try DecodedPNG(path: scratch.path).bytes == (try Fixture.uprightRect(x: 3, y: 5, width: 40, height: 31)))
    }

    /// Strips and tiles, colour planes stored apart, every usual compression, gray, bilevel
    /// (min-is-white), palette, alpha:
    /// the crop is the rect of ImageMagick's own decoding of the file.
    @Test(arguments: [("strips-packbits", 3), ("planar-lzw", 3), ("strips-none", 3), ("tiled-deflate", 3), ("tiled-jpeg", 3), ("gray-lzw", 1),
                      ("bilevel", 1), ("palette", 3), ("rgba-unassociated", 4)])
    func everyLayoutGivesTheSamePixelsAsImageMagick(name: String, channels: Int) throws {
        let (run, scratch) = try Self.crop("\(name).tif")
        #expect(run.status == 0 && run.errorLines == [])
        let picture = try DecodedPNG(path: scratch.path)
        #expect(picture.channels == channels)
        let whole = [UInt8](try Fixture.data("tiff/\(name).raw"))
        #expect(picture.bytes == Fixture.rect(of: whole, pictureWidth: 61, bytesPerPixel: channels, x: 3, y: 5, width: 40, height: 31))
    }

    /// 16-bit samples stay 16-bit.
    @Test func sixteenBitStaysSixteenBit() throws {
        let (run, scratch) = try Self.crop("rgb16-lzw.tif")
        #expect(run.status == 0)
        let decoder = try PNGDecoder(file: InputFile(path: scratch.path))
        #expect(decoder.layout.bitDepth == 16)
        let bytes = try decoder.readRegion(x: 0, y: 0, columns: 40, rows: 31)
        let whole = [UInt8](try Fixture.data("tiff/rgb16-lzw.raw"))
        #expect(bytes == Fixture.rect(of: whole, pictureWidth: 61, bytesPerPixel: 6, x: 3, y: 5, width: 40, height: 31))
    }

    @Test func cmykIsRefusedInOneLine() throws {
        let (run, scratch) = try Self.crop("cmyk.tif")
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(Fixture.path("tiff/cmyk.tif")): TIFF in CMYK (separated) is not supported (gray, RGB and palette are)"])
        #expect(!FileManager.default.fileExists(atPath: scratch.path))
    }
}
