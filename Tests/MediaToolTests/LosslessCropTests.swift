import Foundation
import ImageCodecs
import Imaging
import JPEGCodec
import FileIO
import Testing
import TestSupport

/// `crop --lossless` keeps a JPEG's own blocks, turned upright as jpegtran turns them.
@Suite struct LosslessCropTests {
    struct Case: CustomStringConvertible, Sendable {
        let source: String
        let rect: String
        let reference: String
        var description: String { source }
    }

    /// The fixtures' cases: every orientation in 4:2:0 and 4:4:4, and pictures with partial edge blocks.
    static let cases: [Case] = {
        let table = (try? Fixture.text("lossless/cases.tsv")) ?? ""
        return table.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t").map(String.init)
            return Case(source: fields[0], rect: fields[1], reference: fields[2])
        }
    }()

    static func decoded(_ path: String) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let decoder = try JPEGDecoder(file: InputFile(path: path))
        return (decoder.width, decoder.height, try decoder.readRegion(x: 0, y: 0, columns: decoder.width, rows: decoder.height))
    }

    @Test func everyCaseIsThere() {
        #expect(Self.cases.count == 20)
    }

    @Test(arguments: cases)
    func decodesToWhatJpegtranMakes(_ testCase: Case) throws {
        let scratch = try ScratchOutput("crop.jpg")
        let output = scratch.path
        let run = try ToolRun.run(["crop", "--lossless", "--rect", testCase.rect, Fixture.path("lossless/\(testCase.source)"), "-o", output])
        #expect(run.status == 0 && run.errorLines == [])
        let ours = try Self.decoded(output)
        let jpegtran = try Self.decoded(Fixture.path("lossless/\(testCase.reference)"))
        #expect(ours.width == jpegtran.width && ours.height == jpegtran.height)
        #expect(ours.pixels == jpegtran.pixels)
        // Upright now: a tag saying otherwise would turn it twice.
        if let exif = try JPEGDecoder(file: InputFile(path: output)).exif {
            #expect(try ExifOrientation.read(tiff: exif) == .identity)
        }
    }

    /// Runs a crop of `source` that must fail with `message`, leaving no output.
    static func expectRefusal(_ options: [String], of source: String, message: String) throws {
        let scratch = try ScratchOutput("crop.jpg")
        let run = try ToolRun.run(["crop"] + options + [source, "-o", scratch.path])
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(source): \(message)"])
        #expect(!FileManager.default.fileExists(atPath: scratch.path))
    }

    @Test func aRectOffTheGridIsRefusedWithTheNearestOneOnIt() throws {
        let source = Fixture.path("lossless/o6-420.jpg")
        try Self.expectRefusal(["--lossless", "--rect", "20,17,10,10"], of: source,
                               message: "rect 20,17,10,10 is not on the 16x16 block grid of the output picture; the nearest rect on it that contains this one is 16,16,14,11 (--lossless=expand takes it)")
        let scratch = try ScratchOutput("crop.jpg")
        let output = scratch.path
        let expanded = try ToolRun.run(["crop", "--lossless=expand", "--rect", "20,17,10,10", source, "-o", output])
        #expect(expanded.status == 0 && expanded.errorLines == [])
        let decoder = try JPEGDecoder(file: InputFile(path: output))
        #expect(decoder.width == 14 && decoder.height == 11)
    }

    @Test func partialEdgeBlocksThatATurnWouldMoveCannotBeKept() throws {
        try Self.expectRefusal(["--lossless=expand", "--rect", "0,0,20,20"], of: Fixture.path("lossless/o6-420-partial.jpg"),
                               message: "rect 0,0,20,20 is not on the 16x16 block grid (which starts at 13,0: partial blocks before it cannot be turned without loss) of the output picture, and no rect on it contains this one; the nearest is 13,0,7,20")
    }

    @Test func keepOrientationCropsTheStoredBlocksAndKeepsTheTag() throws {
        let scratch = try ScratchOutput("crop.jpg")
        let output = scratch.path
        let run = try ToolRun.run(["crop", "--lossless", "--keep-orientation", "--stored", "--rect", "16,16,30,20",
                                   Fixture.path("lossless/o6-420.jpg"), "-o", output])
        #expect(run.status == 0)
        let decoder = try JPEGDecoder(file: InputFile(path: output))
        #expect(decoder.width == 30 && decoder.height == 20)
        #expect(try ExifOrientation.read(tiff: #require(decoder.exif)) == .rotate90Clockwise)
    }

    @Test func cameraMetadataSurvivesALosslessCrop() throws {
        let scratch = try ScratchOutput("crop.jpg")
        let output = scratch.path
        let run = try ToolRun.run(["crop", "--lossless=expand", "--location", "keep", "--rect", "6,3,20,30", Fixture.path("pictures/camera.jpg"), "-o", output])
        #expect(run.status == 0 && run.errorLines == [])
        let decoder = try JPEGDecoder(file: InputFile(path: output))
        let exif = try #require(decoder.exif)
        #expect(CropMetadataTests.contains(exif, "MediatoolCam") && CropMetadataTests.contains(exif, "WGS-84"))
        #expect(try ExifOrientation.read(tiff: exif) == .identity)
        let block = try #require(ExifBlock(exif))
        #expect(block.pixelSize?.width == decoder.width && block.pixelSize?.height == decoder.height)
        #expect(!block.hasThumbnail)

        // Without --location keep the position goes, as from every output (--strip gps of earlier versions says the same).
        for flags in [[], ["--strip", "gps"]] {
            let stripped = try ToolRun.run(["crop", "--lossless=expand", "--overwrite", "--rect", "6,3,20,30"] + flags
                                            + [Fixture.path("pictures/camera.jpg"), "-o", output])
            #expect(stripped.status == 0)
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
            #expect(CropMetadataTests.contains(bytes, "MediatoolCam") && !CropMetadataTests.contains(bytes, "WGS-84"))
        }
    }

    /// Restart intervals: the crop is jpegtran's; bytes inside the scan before a restart marker are
    /// corrupt data, an error, not the harmless bytes between segments (a real file showed the difference).
    @Test func restartIntervalsCropAndCorruptionBetweenThemIsRefused() throws {
        let scratch = try ScratchOutput("crop.jpg")
        let run = try ToolRun.run(["crop", "--lossless", "--rect", "16,16,30,20", Fixture.path("lossless/restart.jpg"), "-o", scratch.path])
        #expect(run.status == 0 && run.errorLines == [])
        #expect(try Self.decoded(scratch.path).pixels == Self.decoded(Fixture.path("lossless/restart.jpegtran.jpg")).pixels)
        try Self.expectRefusal(["--lossless", "--rect", "16,16,30,20"], of: Fixture.path("lossless/restart-corrupt.jpg"),
                               message: "Corrupt JPEG data: 40 extraneous bytes before marker 0xd0")
    }

    /// CMYK is never decoded here, so a lossless crop of it is as good as any.
    @Test func aCMYKJPEGCropsWithoutLoss() throws {
        let scratch = try ScratchOutput("crop.jpg")
        let run = try ToolRun.run(["crop", "--lossless", "--rect", "8,8,16,16", Fixture.path("pictures/cmyk.jpg"), "-o", scratch.path])
        #expect(run.status == 0 && run.errorLines == [])
        let decoder = try JPEGDecoder(file: InputFile(path: scratch.path))
        #expect(decoder.isCMYK && decoder.width == 16 && decoder.height == 16)
    }

    @Test func losslessNeedsAJPEGSource() throws {
        try Self.expectRefusal(["--lossless", "--rect", "0,0,8,8"], of: Fixture.path("pictures/orientation6.png"),
                               message: "--lossless JPEG output needs a JPEG picture: this one would be re-encoded with loss (write PNG or WebP to keep every pixel)")
    }

    @Test(arguments: [["--quality", "80"], ["--subsampling", "444"]])
    func whatReencodesIsAUsageError(_ options: [String]) throws {
        let output = try ScratchOutput("never.jpg")
        let run = try ToolRun.run(["crop", "--lossless", "--rect", "0,0,16,16"] + options + [Fixture.path("lossless/o1-420.jpg"), "-o", output.path])
        #expect(run.status == 64)
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func aThumbnailCannotBeAJPEGWithoutLoss() throws {
        let output = try ScratchOutput("never.jpg")
        let run = try ToolRun.run(["thumbnail", "--lossless", Fixture.path("video/quadrants-orientation6.mp4"), "-o", output.path])
        #expect(run.status == 64)
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
