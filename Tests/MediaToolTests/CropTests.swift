import Foundation
import Imaging
import FileIO
import PNGCodec
import Testing
import TestSupport

@Suite struct CropTests {
    static let width = 61, height = 41

    /// The upright picture every orientation fixture shows.
    static let upright: PixelBuffer = {
        let bytes = try! Fixture.data("pictures/upright.rgb")
        return PixelBuffer(width: width, height: height, channels: 3, bytes: [UInt8](bytes))
    }()

    /// Runs `crop` on a fixture into a scratch folder; the output read back with libpng.
    static func crop(_ fixture: String, _ options: [String]) throws -> (run: ToolRun, output: String?, folder: URL) {
        let folder = try Fixture.scratchFolder()
        let output = folder.appendingPathComponent("out.png").path
        let run = try ToolRun.run(["crop", Fixture.path("pictures/\(fixture)"), "-o", output] + options)
        return (run, FileManager.default.fileExists(atPath: output) ? output : nil, folder)
    }

    static func pixels(ofPNG path: String) throws -> PixelBuffer {
        let decoder = try PNGDecoder(file: InputFile(path: path))
        let bytes = try decoder.readRegion(x: 0, y: 0, columns: decoder.width, rows: decoder.height)
        return PixelBuffer(width: decoder.width, height: decoder.height, channels: decoder.layout.channels.count,
                           bytesPerSample: decoder.layout.bitDepth / 8, bytes: bytes)
    }

    /// The largest difference of two pictures' samples; pictures of different shapes differ by the most there is.
    static func largestDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        guard (a.width, a.height, a.channels, a.bytesPerSample) == (b.width, b.height, b.channels, b.bytesPerSample) else { return Int.max }
        return zip(a.bytes, b.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// Random rects of the displayed picture, fractional ones and ones touching the edges included.
    static func rects(seed: UInt64) -> [FractionalRect] {
        var generator = SplitMix64(seed: seed)
        var rects = [
            FractionalRect(x: 0, y: 0, width: Double(width), height: Double(height)),
            FractionalRect(x: Double(width) - 1, y: Double(height) - 1, width: 1, height: 1),
            FractionalRect(x: 0, y: 17, width: 13, height: Double(height) - 17),
        ]
        for _ in 0..<4 {
            let x = Double.random(in: 0..<Double(width - 2), using: &generator)
            let y = Double.random(in: 0..<Double(height - 2), using: &generator)
            rects.append(FractionalRect(x: x, y: y, width: Double.random(in: 0.5...(Double(width) - x), using: &generator),
                                        height: Double.random(in: 0.5...(Double(height) - y), using: &generator)))
        }
        return rects
    }

    @Test(arguments: 1...8, ["png", "jpg"])
    func cropsOfEveryOrientationEqualCropsOfTheUprightPicture(orientation: Int, format: String) throws {
        for rect in Self.rects(seed: UInt64(orientation)) {
            let text = "\(rect.x),\(rect.y),\(rect.width),\(rect.height)"
            let (run, output, folder) = try Self.crop("orientation\(orientation).\(format)", ["--rect", text])
            defer { try? FileManager.default.removeItem(at: folder) }
            #expect(run.status == 0 && run.standardError == "", "\(text): \(run.standardError)")
            let result = try Self.pixels(ofPNG: try #require(output))
            let expected = Self.upright.cropped(to: rect.snappedOutward())
            #expect((result.width, result.height) == (expected.width, expected.height), "\(text)")
            // PNG is exact; JPEG within what quality 95 moves a sample.
            #expect(Self.largestDifference(result, expected) <= (format == "png" ? 0 : 6), "\(text)")
        }
    }

    @Test(arguments: ["exif-after-idat.png", "progressive6.jpg"])
    func orientationFromAnywhereAndProgressiveJPEG(fixture: String) throws {
        let (run, output, folder) = try Self.crop(fixture, ["--rect", "3,4,30,20"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        let result = try Self.pixels(ofPNG: try #require(output))
        #expect(Self.largestDifference(result, Self.upright.cropped(to: PixelRect(x: 3, y: 4, width: 30, height: 20))) <= 6)
    }

    @Test(arguments: ["png", "jpg"])
    func keepOrientationWritesStoredPixelsThatShowTheSame(format: String) throws {
        let (plain, plainOutput, plainFolder) = try Self.crop("orientation7.\(format)", ["--rect", "5,6,20,11"])
        let (kept, keptOutput, keptFolder) = try Self.crop("orientation7.\(format)", ["--rect", "5,6,20,11", "--keep-orientation"])
        defer {
            try? FileManager.default.removeItem(at: plainFolder)
            try? FileManager.default.removeItem(at: keptFolder)
        }
        #expect(plain.status == 0 && kept.status == 0)
        let keptPath = try #require(keptOutput)
        let chunks = try PNGChunks.scan(file: InputFile(path: keptPath))
        let exif = try #require(chunks.exif)
        let orientation = try #require(try ExifOrientation.read(tiff: exif))
        #expect(orientation == .transverse)
        #expect((chunks.width, chunks.height) == (11, 20))
        let plainPath = try #require(plainOutput)
        #expect(try Self.pixels(ofPNG: keptPath).oriented(orientation) == (try Self.pixels(ofPNG: plainPath)))
        let types = try PNGChunkList.types(keptPath)
        #expect(types.filter { $0 == "eXIf" }.count == 1 && types.firstIndex(of: "eXIf")! < types.firstIndex(of: "IDAT")!)
    }

    /// The 61x41 displayed picture of orientation 6 (stored 41x61) in views of other sizes.
    @Test(arguments: [
        // stretch: 122x82 is exactly twice the picture.
        (["--view", "122x82", "--rect", "10,20,20,40"], PixelRect(x: 5, y: 10, width: 10, height: 20)),
        // fit: 122x122 shows it 2x, 122x82, with 20 rows of bars above and below.
        (["--view", "122x122", "--content-mode", "fit", "--rect", "0,20,122,82"], PixelRect(x: 0, y: 0, width: 61, height: 41)),
        (["--view", "122x122", "--content-mode", "fit", "--rect", "10,30,20,20"], PixelRect(x: 5, y: 5, width: 10, height: 10)),
        // fill: 82x82 shows it 2x, 122x82, with 20 columns cut on each side.
        (["--view", "82x82", "--content-mode", "fill", "--rect", "0,0,82,82"], PixelRect(x: 10, y: 0, width: 41, height: 41)),
        // stretch of unequal scales: 30.5x82 halves x and doubles y.
        (["--view", "30.5x82", "--rect", "1,2,3.5,4"], PixelRect(x: 2, y: 1, width: 7, height: 2)),
    ])
    func viewCoordinatesInEveryContentMode(options: [String], expected: PixelRect) throws {
        let (run, output, folder) = try Self.crop("orientation6.png", options)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0, "\(run.standardError)")
        #expect(try Self.pixels(ofPNG: try #require(output)) == Self.upright.cropped(to: expected))
    }

    @Test func storedCoordinatesIgnoreTheOrientation() throws {
        let (run, output, folder) = try Self.crop("orientation6.png", ["--stored", "--rect", "0,0,10,5"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        let stored = try Self.pixels(ofPNG: Fixture.path("pictures/orientation6.png"))
        #expect(try Self.pixels(ofPNG: try #require(output)) == stored.cropped(to: PixelRect(x: 0, y: 0, width: 10, height: 5)).oriented(.rotate90Clockwise))
    }

    @Test(arguments: ["gray1", "gray2", "gray4", "gray8", "gray16", "gray8-trns", "graya8", "graya16", "rgb8", "rgb16",
                      "rgba8", "rgba16", "palette", "palette-trns", "interlaced"])
    func everyColourTypeAndDepthKeepsItsSamples(name: String) throws {
        let (run, output, folder) = try Self.crop("\(name).png", ["--rect", "0,0,7,5"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        #expect(try Self.pixels(ofPNG: try #require(output)).bytes == [UInt8](try Fixture.data("pictures/\(name).raw")))
    }

    @Test(arguments: [("icc.png", true), ("icc.jpg", true), ("srgb.png", false)])
    func colourChunksAreCarriedOver(fixture: String, hasProfile: Bool) throws {
        let (run, output, folder) = try Self.crop(fixture, ["--rect", "0,0,5,5"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        let color = try PNGDecoder(file: InputFile(path: try #require(output))).color
        if hasProfile {
            #expect(color.iccProfile == [UInt8](try Fixture.data("pictures/profile.icc")))
        } else {
            #expect(color.srgbIntent == 0 && color.gamma == 45455)
            #expect(color.chromaticities == [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000])
        }
    }

    @Test func grayJPEGGivesGrayPNG() throws {
        let (run, output, folder) = try Self.crop("gray.jpg", ["--rect", "0,0,9,9"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        #expect(try PNGDecoder(file: InputFile(path: try #require(output))).layout.channels == .gray)
    }

    @Test func aMalformedExifBlockWarnsAndCountsAsUpright() throws {
        let (run, output, folder) = try Self.crop("exif-malformed.jpg", ["--rect", "0,0,9,9"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && output != nil)
        #expect(run.errorLines == ["mediatool: warning: \(Fixture.path("pictures/exif-malformed.jpg")): malformed EXIF: expected II or MM, found 58 59; orientation 1 assumed"])
    }

    @Test(arguments: [
        (["--rect", "30,30,20,20"], "rect 30,30,20,20 is not inside the picture, 61x41 as displayed (--clamp crops the part inside)"),
        (["--rect", "70,0,5,5", "--clamp"], "rect 70,0,5,5 does not meet the picture, 61x41 as displayed"),
        (["--stored", "--rect", "0,0,42,5"], "rect 0,0,42,5 is not inside the picture, 41x61 as stored (--clamp crops the part inside)"),
        (["--rect=-0.5,0,5,5"], "rect -1,0,6,5 is not inside the picture, 61x41 as displayed (--clamp crops the part inside)"),
    ])
    func rectsOutsideThePicture(options: [String], message: String) throws {
        let (run, output, folder) = try Self.crop("orientation6.png", options)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(Fixture.path("pictures/orientation6.png")): \(message)"])
        #expect(output == nil)
    }

    @Test func clampCropsTheIntersection() throws {
        let (run, output, folder) = try Self.crop("orientation1.png", ["--rect", "50,30,20,20", "--clamp"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        #expect(try Self.pixels(ofPNG: try #require(output)) == Self.upright.cropped(to: PixelRect(x: 50, y: 30, width: 11, height: 11)))
    }

    @Test(arguments: [
        ("bad-crc.png", "IDAT: CRC error"), ("corrupt-idat.png", "IDAT: CRC error"),
        ("truncated.png", "truncated: chunk IDAT runs past the end of the file"),
        ("truncated.jpg", "Premature end of JPEG file"), ("not-a-picture.png", "not a PNG, JPEG, WebP, HEIF, AVIF or TIFF file"),
        ("empty.jpg", "an empty file"), ("cmyk.jpg", "CMYK JPEG is not supported (convert it to RGB first)"),
        ("bomb.png", "100000x100000 is 10000000000 pixels, over the limit of 268000000 (--max-pixels)"),
        ("missing.png", "cannot open: No such file or directory"),
    ])
    func badPicturesFailInOneLineWithNoOutput(fixture: String, message: String) throws {
        let (run, output, folder) = try Self.crop(fixture, ["--rect", "0,0,40,40"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(Fixture.path("pictures/\(fixture)")): \(message)"])
        #expect(output == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test(arguments: [["--rect", "0,0,0,5"], ["--rect", "0,0,5,-1"], ["--rect", "1,2,3"], ["--rect", "a,b,c,d"],
                      ["--rect", "0,0,5,5", "--view", "10"], ["--rect", "0,0,5,5", "--view", "10x10", "--stored"],
                      ["--rect", "0,0,5,5", "--content-mode", "fit"], ["--rect", "0,0,5,5", "--max-pixels", "0"]])
    func usageErrorsExit64(options: [String]) throws {
        let (run, _, folder) = try Self.crop("orientation1.png", options)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 64)
    }

    @Test func outputsAreNamedBesideTheInput() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo.jpg").path
        try FileManager.default.copyItem(atPath: Fixture.path("pictures/orientation3.jpg"), toPath: photo)
        #expect(try ToolRun.run(["crop", photo, "--rect", "0,0,4,4"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["photo.crop.png", "photo.jpg"])
    }
}

/// The chunk types of a PNG file, in order.
enum PNGChunkList {
    static func types(_ path: String) throws -> [String] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var types: [String] = []
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            types.append(String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self))
            offset += 12 + length
        }
        return types
    }
}
