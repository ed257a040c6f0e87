import FileIO
import Foundation
import Testing
import TestSupport
@testable import TIFFCodec

/// `TIFFDecoder`: the first image's pixels as ImageMagick (the fixtures' `.raw`, scripts/fixtures/tiff.py)
/// and Pillow read them, and its tags as libtiff's tiffinfo states them.
@Suite struct TIFFDecoderTests {
    static func decoder(_ name: String) throws -> TIFFDecoder {
        try TIFFDecoder(file: InputFile(path: RepositoryFixtures.path("tiff/\(name)")))
    }

    static let regions: [(x: Int, y: Int, width: Int, height: Int)] = [(0, 0, 61, 41), (3, 5, 20, 17), (15, 15, 3, 3), (60, 40, 1, 1), (17, 0, 30, 41)]

    /// name, channels, bytes a sample of the `.raw`.
    @Test(arguments: [("strips-packbits", 3, 1), ("strips-none", 3, 1), ("tiled-deflate", 3, 1), ("tiled-jpeg", 3, 1),
                      ("planar-lzw", 3, 1), ("rgb16-lzw", 3, 2), ("gray-lzw", 1, 1), ("bilevel", 1, 1), ("palette", 3, 1),
                      ("rgba-unassociated", 4, 1), ("oldjpeg", 3, 1)])
    func regionsAreImageMagicks(name: String, channels: Int, bytesPerSample: Int) throws {
        let raw = try RepositoryFixtures.bytes("tiff/\(name).raw")
        let probe = try Self.decoder("\(name).tif")
        #expect(probe.width == 61 && probe.height == 41 && probe.channels == channels && probe.bytesPerSample == bytesPerSample)
        #expect(raw.count == 61 * 41 * channels * bytesPerSample)
        for region in Self.regions {
            let pixels = try Self.decoder("\(name).tif").readRegion(x: region.x, y: region.y, width: region.width, height: region.height)
            let expected = RepositoryFixtures.rect(of: raw, pictureWidth: 61, bytesPerPixel: channels * bytesPerSample,
                                                   x: region.x, y: region.y, width: region.width, height: region.height)
            #expect(pixels == expected, "\(name) \(region)")
        }
    }

    /// The 10, 12 and 14-bit fixtures hold known samples (`deep_sample` of tiff.py), widened to 16
    /// bits by repeating their top bits, big-endian.
    @Test(arguments: [("gray10", 10, 1), ("gray12", 12, 1), ("gray14", 14, 1), ("rgb10-planar", 10, 3), ("rgb12-deflate", 12, 3), ("rgb14", 14, 3)])
    func deepSamplesWidenedTo16Bits(name: String, bits: Int, channels: Int) throws {
        func sample(_ x: Int, _ y: Int, _ channel: Int) -> Int {
            if (x, y) == (3, 5) { return (1 << bits) - 1 }
            if (x, y) == (4, 5) { return 0 }
            return ((x + 61 * y) * 1031 + channel * 2749) % (1 << bits)
        }
        let decoder = try Self.decoder("\(name).tif")
        #expect(decoder.channels == channels && decoder.bytesPerSample == 2)
        let pixels = try decoder.readRegion(x: 0, y: 0, width: 61, height: 41)
        var expected: [UInt8] = []
        for y in 0..<41 { for x in 0..<61 { for channel in 0..<channels {
            let value = sample(x, y, channel)
            let wide = (value << (16 - bits) | value >> (2 * bits - 16)) & 0xFFFF
            expected += [UInt8(wide >> 8), UInt8(wide & 0xFF)]
        } } }
        #expect(pixels == expected)
        #expect(Array(pixels[((5 * 61 + 3) * channels * 2)...].prefix(2 * channels)) == [UInt8](repeating: 0xFF, count: 2 * channels), "largest is 65535")
    }

    static let python = "/usr/bin/python3"
    static var hasPillow: Bool { (try? ChildProcess.run(python, ["-c", "import PIL"]).status) == 0 }

    /// The Orientation tag (274) as Pillow reads it. (Pillow's pixels of these files are turned
    /// by libtiff's RGBA interface already: no reference for stored pixels.)
    @Test(.enabled(if: try Requirement.met(hasPillow, "Pillow is not installed (scripts/bootstrap test installs it)")))
    func orientationIsPillows() throws {
        let names = (1...8).map { "orientation\($0).tif" }
        let script = """
            import sys
            from PIL import Image
            for path in sys.argv[1:]:
                image = Image.open(path)
                print(image.tag_v2.get(274, 1), image.width, image.height)
            """
        let run = try ChildProcess.run(Self.python, ["-c", script] + names.map { RepositoryFixtures.path("tiff/\($0)") })
        #expect(run.status == 0)
        let lines = String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n")
        try #require(lines.count == names.count)
        for (name, line) in zip(names, lines) {
            let fields = line.split(separator: " ")
            let decoder = try Self.decoder(name)
            #expect(decoder.orientation == Int(fields[0]), "\(name)")
            #expect(decoder.width == Int(fields[1]) && decoder.height == Int(fields[2]))
        }
    }

    static let convert = "/usr/bin/convert"

    /// The stored pixels of the orientation fixtures (the tag not applied), as ImageMagick reads them.
    @Test(.enabled(if: try Requirement.tool(convert)), arguments: 1...8)
    func storedPixelsAreImageMagicks(orientation: Int) throws {
        let path = RepositoryFixtures.path("tiff/orientation\(orientation).tif")
        let run = try ChildProcess.run(Self.convert, [path, "-depth", "8", "rgb:-"])
        #expect(run.status == 0)
        let decoder = try TIFFDecoder(file: InputFile(path: path))
        #expect(try decoder.readRegion(x: 0, y: 0, width: decoder.width, height: decoder.height) == [UInt8](run.standardOutput))
    }

    @Test(.enabled(if: try Requirement.tool("/usr/bin/exiftool")))
    func iccProfileAndXMPAreTheFiles() throws {
        let decoder = try Self.decoder("icc-xmp.tif")
        #expect(decoder.iccProfile == (try RepositoryFixtures.bytes("pictures/hp-srgb.icc")))
        let xmp = try ChildProcess.run("/usr/bin/exiftool", ["-b", "-XMP", RepositoryFixtures.path("tiff/icc-xmp.tif")]).standardOutput
        #expect(decoder.xmp == [UInt8](xmp) && !xmp.isEmpty)
        #expect(try Self.decoder("strips-none.tif").iccProfile == nil)
    }

    @Test func unsupportedPicturesSayWhat() throws {
        #expect(throws: TIFFError.unsupportedPhotometric(5)) { try Self.decoder("cmyk.tif") }
        #expect(TIFFError.unsupportedPhotometric(5).description == "TIFF in CMYK (separated) is not supported (gray, RGB and palette are)")
        #expect(TIFFError.unsupportedSamples(bits: 32, format: 3).description
                == "TIFF samples of 32 bits in sample format 3 are not supported (unsigned 1, 2, 4, 8, 10, 12, 14 or 16 bits are)")
        #expect(throws: TIFFError.self) { try TIFFDecoder(file: InputFile(path: RepositoryFixtures.path("bad/tiff-zero-length.tif"))) }
        #expect(throws: TIFFError.self) { try TIFFDecoder(file: InputFile(path: RepositoryFixtures.path("pictures/rgb8.png"))) }
    }

    @Test func signatures() {
        #expect(TIFFDecoder.hasSignature([0x49, 0x49, 42, 0]))
        #expect(TIFFDecoder.hasSignature([0x4D, 0x4D, 0, 42]))
        #expect(TIFFDecoder.hasSignature([0x49, 0x49, 43, 0]))  // BigTIFF
        #expect(!TIFFDecoder.hasSignature([0x49, 0x49, 0, 42]))
        #expect(!TIFFDecoder.hasSignature([0x49, 0x49, 42]))
    }

    /// Samples packed most significant bit first, as TIFF packs them.
    @Test func packedSamples() {
        let twelve: [UInt8] = [0xAB, 0xCD, 0xEF]  // 0xABC, 0xDEF
        twelve.withUnsafeBufferPointer {
            #expect(TIFFDecoder.packedSample($0.baseAddress!, 0, bits: 12) == 0xABC)
            #expect(TIFFDecoder.packedSample($0.baseAddress!, 1, bits: 12) == 0xDEF)
            #expect(TIFFDecoder.packedSample($0.baseAddress!, 5, bits: 4) == 0xF)
            #expect(TIFFDecoder.packedSample($0.baseAddress!, 2, bits: 1) == 1)
            #expect(TIFFDecoder.packedSample($0.baseAddress!, 1, bits: 1) == 0)
        }
        let ten: [UInt8] = [0b1100_0000, 0b0111_1111, 0b1100_0000]  // 0b1100000001, 0b1111111100
        ten.withUnsafeBufferPointer {
            #expect(TIFFDecoder.packedSample($0.baseAddress!, 0, bits: 10) == 0b11_0000_0001)
            #expect(TIFFDecoder.packedSample($0.baseAddress!, 1, bits: 10) == 0b11_1111_1100)
        }
    }
}
