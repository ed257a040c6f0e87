import Foundation
import Imaging
import JPEGCodec
import FileIO
import PNGCodec
import Testing
import TestSupport

/// What real camera files and Pillow's test images showed, each as a fixture.
@Suite struct RealWorldCropTests {
    /// The ICC profile a crop carried, read back with libpng.
    static func profile(ofPNG path: String) throws -> [UInt8]? {
        try PNGDecoder(file: InputFile(path: path)).color.iccProfile
    }

    @Test func theHPSRGBProfileOfCameraJPEGsIsCarried() throws {
        let (run, output, folder) = try CropTests.crop("hp-srgb.jpg", ["--rect", "0,0,10,10"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        #expect(run.errorLines == [])
        #expect(try Self.profile(ofPNG: try #require(output)) == [UInt8](try Fixture.data("pictures/hp-srgb.icc")))
    }

    @Test func aProfileSegmentAfterSOFAndRepeatedIsTaken() throws {
        let (run, output, folder) = try CropTests.crop("icc-after-sof.jpg", ["--rect", "0,0,10,10"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        #expect(run.errorLines == [])
        #expect(try Self.profile(ofPNG: try #require(output)) == [UInt8](try Fixture.data("pictures/profile.icc")))
    }

    @Test func aProfileLibpngRefusesIsLeftOutWithAWarningAndThePixelsAreWritten() throws {
        // A gray picture with an RGB profile: libpng will not write that pairing.
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gray = folder.appendingPathComponent("gray-rgb-profile.jpg").path
        var bytes = [UInt8](try Fixture.data("pictures/gray.jpg"))
        let profile = [UInt8](try Fixture.data("pictures/profile.icc"))
        let segment: [UInt8] = [0xFF, 0xE2] + [UInt8((profile.count + 16) >> 8), UInt8((profile.count + 16) & 0xFF)]
            + Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile
        bytes.insert(contentsOf: segment, at: 2)
        try Data(bytes).write(to: URL(fileURLWithPath: gray))
        let output = folder.appendingPathComponent("out.png").path
        let run = try ToolRun.run(["crop", "--rect", "0,0,10,10", gray, "-o", output])
        #expect(run.status == 0)
        #expect(run.errorLines.count == 1)
        #expect(run.errorLines.first?.hasPrefix("mediatool: warning: \(gray): colour metadata left out: ") == true)
        #expect(try DecodedPNG(path: output).width == 10)
    }

    /// Orientation where ImageMagick (a hex "Raw profile type exif" text) and XMP (tiff:Orientation)
    /// put it, as Pillow's test images carry it: the crop shows the upright picture exactly.
    @Test(arguments: ["raw-profile-orientation6.png", "xmp-orientation8.png"])
    func orientationFromTextChunks(fixture: String) throws {
        let (run, output, folder) = try CropTests.crop(fixture, ["--rect", "3,4,30,20"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [])
        let result = try CropTests.pixels(ofPNG: try #require(output))
        #expect(result == CropTests.upright.cropped(to: PixelRect(x: 3, y: 4, width: 30, height: 20)))
    }

    /// Crop edges on and off the 16-pixel MCU grid, against libjpeg-turbo's full decode of the file.
    @Test(arguments: ["noise420.jpg", "noise422.jpg", "noise444.jpg"])
    func cropEdgesMatchTheFullDecodeExactly(fixture: String) throws {
        let full = try JPEGDecoder(file: InputFile(path: Fixture.path("pictures/\(fixture)")))
        let (width, height) = (full.width, full.height)
        let whole = try full.readRegion(x: 0, y: 0, columns: width, rows: height)
        let rects = [(16, 16, 32, 32), (15, 15, 34, 34), (17, 3, 20, 40), (0, 0, 16, 16), (48, 32, 16, 16),
                     (1, 1, 94, 78), (64, 40, 32, 40), (8, 8, 8, 8), (80, 64, 16, 16), (0, 31, 96, 2), (31, 0, 2, 80)]
        for (x, y, w, h) in rects {
            let (run, output, folder) = try CropTests.crop(fixture, ["--rect", "\(x),\(y),\(w),\(h)"])
            defer { try? FileManager.default.removeItem(at: folder) }
            #expect(run.status == 0)
            let crop = try DecodedPNG(path: try #require(output))
            var expected: [UInt8] = []
            for row in y..<(y + h) { expected += whole[((row * width + x) * 3)..<((row * width + x + w) * 3)] }
            #expect(crop.bytes == expected, "\(fixture) \(x),\(y),\(w),\(h)")
        }
    }
}
