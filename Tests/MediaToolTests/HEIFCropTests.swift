import Foundation
import FileIO
import Imaging
import PNGCodec
import Testing
import TestSupport

/// HEIC crops, upright by the file's irot/imir (never by the EXIF orientation inside), and
/// grids decoded from the tiles the rect meets, exactly as libheif decodes the whole grid.
@Suite struct HEIFCropTests {
    /// Crops `fixture` (under Fixtures/heif) with `options` to a PNG and reads it back.
    static func crop(_ fixture: String, _ options: [String]) throws -> (run: ToolRun, picture: DecodedPNG?, path: String, scratch: ScratchOutput) {
        let scratch = try ScratchOutput("crop.png")
        let run = try ToolRun.run(["crop"] + options + [Fixture.path("heif/\(fixture)"), "-o", scratch.path])
        return (run, try? DecodedPNG(path: scratch.path), scratch.path, scratch)
    }

    /// The picture every orientation fixture shows (scripts/fixtures/heif.py's upright_pixel).
    static func upright(x: Int, y: Int) -> [Int] {
        var pixel = [20 + 2 * x, 30 + 3 * y, 200 - x - y]
        if x == 30 || x == 31 || y == 20 || y == 21 { pixel = pixel.map { $0 / 3 } }
        return pixel
    }

    static let heifConvert = "/usr/bin/heif-convert"

    /// The whole picture as libheif's own example decoder shows it (heif-convert, which applies the
    /// transforms): a reference mediatool did not make.
    static func libheifDecoding(_ fixture: String) throws -> DecodedPNG {
        let scratch = try ScratchOutput("whole.png")
        let run = try ChildProcess.run(heifConvert, [Fixture.path("heif/\(fixture)"), scratch.path])
        try #require(run.status == 0, "heif-convert: \(String(decoding: run.standardError, as: UTF8.self))")
        return try DecodedPNG(path: scratch.path)
    }

    /// Every stored orientation, turned back by its transforms, crops to the pixels heif-convert shows
    /// (the coding is lossless 4:4:4, so the turns are exact), and those are the upright picture's.
    @Test(.enabled(if: try Requirement.tool(heifConvert), "heif-convert is not installed (scripts/bootstrap test installs it)"),
          arguments: 1...8)
    func everyOrientationCropsToTheUprightPicture(orientation: Int) throws {
        let made = try Self.crop("orientation\(orientation).heic", ["--rect", "10,5,50,40"])
        #expect(made.run.status == 0 && made.run.errorLines == [])
        let picture = try #require(made.picture)
        #expect(picture.width == 50 && picture.height == 40)
        let whole = try Self.libheifDecoding("orientation\(orientation).heic")
        #expect((whole.width, whole.height, whole.channels) == (96, 64, 3))
        #expect(picture.bytes == Fixture.rect(of: whole.bytes, pictureWidth: whole.width, bytesPerPixel: 3, x: 10, y: 5, width: 50, height: 40))
        var worst = 0
        for y in 0..<40 {
            for x in 0..<50 {
                let expected = Self.upright(x: x + 10, y: y + 5)
                for (channel, sample) in picture.pixel(x: x, y: y).enumerated() {
                    worst = max(worst, abs(Int(sample) - expected[channel]))
                }
            }
        }
        #expect(worst <= 4)
    }

    /// AVIF (AV1 through dav1d), lossless too: the same pixels as the HEIC of the same picture.
    @Test(arguments: ["orientation1.avif", "orientation6.avif"])
    func avifCropsLikeTheHEIC(fixture: String) throws {
        let made = try Self.crop(fixture, ["--rect", "10,5,50,40"])
        #expect(made.run.status == 0 && made.run.errorLines == [])
        let heic = try #require(try Self.crop("orientation1.heic", ["--rect", "10,5,50,40"]).picture)
        #expect(try #require(made.picture).bytes == heic.bytes)
    }

    /// An AVIF whose alpha image is coded in limited range (16 to 235, as its colr and sequence header
    /// say): alpha is expanded to the full range, as libavif does (scripts/fixtures/heif.py checks
    /// avifdec gives these values), where libheif 1.15 hands 235 over for opaque. The known alpha of
    /// the fixture: opaque left of column 48, 128 to column 72, clear after; the colour is the
    /// picture's, as in the AVIF without alpha.
    @Test func limitedRangeAlphaIsExpanded() throws {
        let made = try Self.crop("alpha-limited.avif", ["--rect", "40,10,50,20"])
        #expect(made.run.status == 0 && made.run.errorLines == [])
        let picture = try #require(made.picture)
        #expect(picture.channels == 4)
        let colour = try #require(try Self.crop("orientation1.avif", ["--rect", "40,10,50,20"]).picture)
        var wrongAlpha: [String] = [], wrongColour = 0
        for y in 0..<20 {
            for x in 0..<50 {
                let pixel = picture.pixel(x: x, y: y)
                let expected = x + 40 < 48 ? 255 : x + 40 < 72 ? 128 : 0
                if Int(pixel[3]) != expected && wrongAlpha.count < 3 { wrongAlpha.append("(\(x + 40), \(y + 10)): \(pixel[3]), not \(expected)") }
                if Array(pixel[0..<3]) != colour.pixel(x: x, y: y) { wrongColour += 1 }
            }
        }
        #expect(wrongAlpha == [])
        #expect(wrongColour == 0)
    }

    /// A clean aperture: the picture shown is its centred 80x48, and rects are in it.
    @Test(.enabled(if: try Requirement.tool(heifConvert), "heif-convert is not installed (scripts/bootstrap test installs it)"))
    func aCleanApertureIsWhatIsShown() throws {
        let made = try Self.crop("clap.heic", ["--rect", "0,0,80,48"])
        #expect(made.run.status == 0 && made.run.errorLines == [])
        let whole = try Self.libheifDecoding("clap.heic")
        #expect((whole.width, whole.height) == (80, 48))
        #expect(try #require(made.picture).bytes == whole.bytes)
        let outside = try Self.crop("clap.heic", ["--rect", "0,0,81,48"])
        #expect(outside.run.status == 1)
        #expect(outside.run.errorLines == ["mediatool: \(Fixture.path("heif/clap.heic")): rect 0,0,81,48 is not inside the picture, 80x48 as displayed (--clamp crops the part inside)"])
    }

    /// A picture coded without colour (4:0:0) crops to gray, its luma that of the upright picture.
    @Test func grayStaysGray() throws {
        let made = try Self.crop("gray.heic", ["--rect", "10,5,50,40"])
        #expect(made.run.status == 0 && made.run.errorLines == [])
        let picture = try #require(made.picture)
        #expect(picture.channels == 1)
        var worst = 0
        for y in 0..<40 {
            for x in 0..<50 {
                let rgb = Self.upright(x: x + 10, y: y + 5)
                // BT.601 luma, as ffmpeg made the gray picture from RGB.
                let luma = (299 * rgb[0] + 587 * rgb[1] + 114 * rgb[2] + 500) / 1000
                worst = max(worst, abs(Int(picture.pixel(x: x, y: y)[0]) - luma))
            }
        }
        #expect(worst <= 3)
    }

    /// Each fixture carries an EXIF orientation of 6, which is informational: applied, the crops
    /// above would be turned; carried, it says 1, as the pixels are upright.
    @Test func theEXIFOrientationInsideIsCarriedAsOne() throws {
        let made = try Self.crop("orientation3.heic", ["--rect", "0,0,8,8"])
        #expect(made.run.status == 0)
        let exif = try #require(try PNGChunks.scan(file: InputFile(path: made.path)).exif)
        #expect(try ExifOrientation.read(tiff: exif) == .identity)
    }

    /// Across tile seams, inside one tile, and the whole grid (its last column and row cut).
    @Test(arguments: [(0, 0, 90, 60), (20, 10, 40, 30), (60, 5, 20, 20), (57, 31, 3, 3)])
    func gridCropsMatchLibheifsWholeDecoding(x: Int, y: Int, width: Int, height: Int) throws {
        let made = try Self.crop("grid6.heic", ["--rect", "\(x),\(y),\(width),\(height)"])
        #expect(made.run.status == 0 && made.run.errorLines == [])
        let picture = try #require(made.picture)
        let whole = try DecodedPNG(path: Fixture.path("heif/grid6.expected.png"))
        #expect(picture.width == width && picture.height == height)
        var differing = 0
        for row in 0..<height {
            for column in 0..<width where picture.pixel(x: column, y: row) != whole.pixel(x: x + column, y: y + row) {
                differing += 1
            }
        }
        #expect(differing == 0)
    }

    /// `--stored` is the coded image, before the transforms: its rect, shown upright.
    @Test func storedRectsAreInTheCodedImage() throws {
        let stored = try #require(try Self.crop("orientation6.heic", ["--stored", "--rect", "0,0,20,10"]).picture)
        let displayed = try #require(try Self.crop("orientation6.heic", ["--rect", "86,0,10,20"]).picture)
        #expect(stored.width == 10 && stored.height == 20)
        #expect(stored.bytes == displayed.bytes)
    }

    @Test func keepOrientationCannotKeepAHEIFOrientation() throws {
        let made = try Self.crop("orientation6.heic", ["--keep-orientation", "--rect", "0,0,8,8"])
        #expect(made.run.status == 0)
        #expect(made.run.errorLines == ["mediatool: warning: \(Fixture.path("heif/orientation6.heic")): a HEIF orientation is no EXIF orientation: the crop was turned upright instead (--keep-orientation)"])
        let upright = try #require(try Self.crop("orientation6.heic", ["--rect", "0,0,8,8"]).picture)
        #expect(made.picture?.bytes == upright.bytes)
    }
}
