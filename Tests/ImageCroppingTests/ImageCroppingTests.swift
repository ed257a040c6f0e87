import FileIO
import Foundation
import ImageCodecs
@testable import ImageCropping
import Imaging
import Testing
import TestSupport

/// `CropError`: each message says what was found, in the words the command line prints.
@Suite struct CropErrorTests {
    @Test func messages() {
        let rect = PixelRect(x: 1, y: 2, width: 30, height: 40)
        #expect(CropError.rectOutside(rect: rect, width: 20, height: 10, space: "displayed").description
                == "rect 1,2,30,40 is not inside the picture, 20x10 as displayed (clamps crops the part inside)")
        #expect(CropError.rectDisjoint(rect: rect, width: 20, height: 10, space: "stored").description
                == "rect 1,2,30,40 does not meet the picture, 20x10 as stored")
        #expect(CropError.losslessNeedsJPEG.description.hasPrefix("lossless JPEG output needs a JPEG picture"))
        #expect(CropError.number(5) == "5" && CropError.number(2.5) == "2.5" && CropError.number(-3) == "-3")
    }
}

/// `Cropper`: crops of each format into a scratch folder, compared with Pillow's crop of the
/// picture (turned upright by its EXIF orientation, for a displayed rect).
@Suite struct CropperTests {
    static let python = "/usr/bin/python3"
    static var hasPillow: Bool { (try? ChildProcess.run(python, ["-c", "import PIL"]).status) == 0 }

    /// Pillow's crop, as RGB (or RGBA) bytes in hex.
    static func pillowCrop(_ path: String, _ rect: PixelRect, upright: Bool, mode: String) throws -> String {
        let script = """
            import sys
            from PIL import Image, ImageOps
            image = Image.open(sys.argv[1])
            if sys.argv[2] == "1":
                image = ImageOps.exif_transpose(image)
            x, y, w, h = map(int, sys.argv[3:7])
            sys.stdout.write(image.convert(sys.argv[7]).crop((x, y, x + w, y + h)).tobytes().hex())
            """
        let run = try ChildProcess.run(python, ["-c", script, path, upright ? "1" : "0", "\(rect.x)", "\(rect.y)", "\(rect.width)", "\(rect.height)", mode])
        try #require(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        return String(decoding: run.standardOutput, as: UTF8.self)
    }

    @Test(.enabled(if: try Requirement.met(hasPillow, "Pillow is not installed (scripts/bootstrap test installs it)")),
          arguments: ["pictures/orientation6.png", "pictures/orientation3.jpg", "pictures/noise420.jpg",
                      "webp/orientation5.webp", "tiff/strips-packbits.tif"])
    func displayedCropIsPillows(relative: String) throws {
        let rect = PixelRect(x: 3, y: 5, width: 17, height: 11)
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("crop.png").path
        var options = CropOptions(rect: .displayed(FractionalRect(x: 3, y: 5, width: 17, height: 11)))
        options.format = .png
        let report = try Cropper(options: options).crop(RepositoryFixtures.path(relative), to: output)
        #expect(report.output == output)
        let png = try DecodedPNG(path: output)
        #expect(png.width == rect.width && png.height == rect.height)
        let mode = png.channels == 4 ? "RGBA" : png.channels == 1 ? "L" : "RGB"
        let expected = try Self.pillowCrop(RepositoryFixtures.path(relative), rect, upright: true, mode: mode)
        #expect(png.bytes.map { String(format: "%02x", $0) }.joined() == expected, "\(relative)")
    }

    /// A stored rect ignores the orientation; kept (`keepsOrientation`), the stored pixels are
    /// written as they are, as Pillow reads them.
    @Test(.enabled(if: try Requirement.met(hasPillow, "Pillow is not installed (scripts/bootstrap test installs it)")))
    func storedCropIgnoresOrientation() throws {
        let relative = "pictures/orientation6.png"
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("stored.png").path
        var options = CropOptions(rect: .stored(FractionalRect(x: 2, y: 1, width: 9, height: 7)))
        options.keepsOrientation = true
        let report = try Cropper(options: options).crop(RepositoryFixtures.path(relative), to: output)
        #expect(report.storedRect == PixelRect(x: 2, y: 1, width: 9, height: 7))
        let png = try DecodedPNG(path: output)
        let expected = try Self.pillowCrop(RepositoryFixtures.path(relative), PixelRect(x: 2, y: 1, width: 9, height: 7), upright: false, mode: "RGB")
        #expect(png.bytes.map { String(format: "%02x", $0) }.joined() == expected)
    }

    @Test func rectOutsideIsRefusedAndNothingWritten() throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("none.png").path
        let cropper = Cropper(options: CropOptions(rect: .displayed(FractionalRect(x: 50, y: 0, width: 20, height: 10))))
        #expect(throws: CropError.self) { try cropper.crop(RepositoryFixtures.path("pictures/orientation1.png"), to: output) }
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
