import Foundation
import FileIO
import PNGCodec
import Testing
import TestSupport

/// TIFF pictures crop as a person sees them (tag 274), whatever their layout and compression.
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

    /// scripts/fixtures/tiff.py's deep_sample: the known value of a sample of the 10, 12 and 14-bit pictures.
    static func deepSample(x: Int, y: Int, channel: Int, bits: Int) -> Int {
        if (x, y) == (3, 5) { return (1 << bits) - 1 }
        if (x, y) == (4, 5) { return 0 }
        return ((x + 61 * y) * 1031 + channel * 2749) % (1 << bits)
    }

    /// 10, 12 and 14-bit samples (gray and RGB; strips, Deflate, planes stored apart) come out as
    /// 16-bit PNG samples, widened by repeating their top bits (0 stays 0, the largest becomes 65535),
    /// as the HEIF path widens 10 and 12-bit samples; the values are the ones the fixture script wrote
    /// (and checked against ImageMagick and, for 12-bit gray, Pillow).
    @Test(arguments: [("gray10", 10, 1), ("gray12", 12, 1), ("gray14", 14, 1), ("rgb10-planar", 10, 3), ("rgb12-deflate", 12, 3), ("rgb14", 14, 3)])
    func deepSamplesAreWidenedToSixteenBits(name: String, bits: Int, channels: Int) throws {
        let (run, scratch) = try Self.crop("\(name).tif")
        #expect(run.status == 0 && run.errorLines == [])
        let decoder = try PNGDecoder(file: InputFile(path: scratch.path))
        #expect(decoder.layout.bitDepth == 16 && decoder.layout.channels.count == channels)
        let bytes = try decoder.readRegion(x: 0, y: 0, columns: 40, rows: 31)
        var expected: [UInt8] = []
        for y in 5..<36 {
            for x in 3..<43 {
                for channel in 0..<channels {
                    let value = Self.deepSample(x: x, y: y, channel: channel, bits: bits)
                    let wide = value << (16 - bits) | value >> (2 * bits - 16)
                    expected += [UInt8(wide >> 8), UInt8(wide & 0xFF)]
                }
            }
        }
        #expect(bytes == expected)
        #expect(Array(bytes.prefix(2 * channels)) == [UInt8](repeating: 0xFF, count: 2 * channels))
    }

    /// Old-style JPEG (compression 6), read through libtiff's RGBA interface: the pixels djpeg
    /// decodes from its JPEG stream (without fancy upsampling, as libtiff replicates chroma).
    @Test func oldStyleJPEGIsRead() throws {
        let (run, scratch) = try Self.crop("oldjpeg.tif")
        #expect(run.status == 0 && run.errorLines == [])
        let picture = try DecodedPNG(path: scratch.path)
        #expect(picture.channels == 3)
        let whole = [UInt8](try Fixture.data("tiff/oldjpeg.raw"))
        #expect(picture.bytes == Fixture.rect(of: whole, pictureWidth: 61, bytesPerPixel: 3, x: 3, y: 5, width: 40, height: 31))
    }

    @Test func cmykIsRefusedInOneLine() throws {
        let (run, scratch) = try Self.crop("cmyk.tif")
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(Fixture.path("tiff/cmyk.tif")): TIFF in CMYK (separated) is not supported (gray, RGB and palette are)"])
        #expect(!FileManager.default.fileExists(atPath: scratch.path))
    }
}
