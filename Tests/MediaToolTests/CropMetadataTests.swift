import Foundation
import ImageCodecs
import Imaging
import JPEGCodec
import MediaIO
import PNGCodec
import Testing
import TestSupport

/// Issue 12: a crop keeps the picture's EXIF where the output can hold it, made true of the crop.
@Suite struct CropMetadataTests {
    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        containsBytes(bytes, Array(text.utf8))
    }

    static func crop(_ options: [String], to name: String) throws -> (run: ToolRun, path: String, folder: URL) {
        let folder = try Fixture.scratchFolder()
        let path = folder.appendingPathComponent(name).path
        let run = try ToolRun.run(["crop", "--rect", "2,3,20,30"] + options + [Fixture.path("pictures/camera.jpg"), "-o", path])
        return (run, path, folder)
    }

    @Test(arguments: ["out.jpg", "out.png"])
    func dateCameraAndPositionSurviveWithTheOrientationReset(name: String) throws {
        let (run, path, folder) = try Self.crop([], to: name)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [])
        let file = try InputFile(path: path)
        let exif = try #require(name.hasSuffix(".jpg") ? try JPEGDecoder(file: file).exif : try PNGChunks.scan(file: file).exif)
        #expect(Self.contains(exif, "MediatoolCam") && Self.contains(exif, "2019:12:20 17:08:32") && Self.contains(exif, "WGS-84"))
        #expect(try ExifOrientation.read(tiff: exif) == .identity)
        let block = try #require(ExifBlock(exif))
        #expect(block.pixelSize?.width == 20 && block.pixelSize?.height == 30)
        #expect(!block.hasThumbnail)
        // The thumbnail of the whole picture is gone from the bytes, not only unlinked.
        let thumbnail = Array(try Fixture.data("pictures/gray.jpg").dropFirst(20).prefix(40))
        #expect(!Self.containsBytes([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), thumbnail))
    }

    static func containsBytes(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        bytes.count >= needle.count && (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test func stripGPSLeavesNoPositionInTheFile() throws {
        let (run, path, folder) = try Self.crop(["--strip", "gps"], to: "out.jpg")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Self.contains(bytes, "MediatoolCam"))
        #expect(!Self.contains(bytes, "WGS-84"))
        // 48/1 degrees, as a RATIONAL in the file's byte order, is gone too.
        #expect(!Self.containsBytes(bytes, [0, 0, 0, 48, 0, 0, 0, 1]) && !Self.containsBytes(bytes, [48, 0, 0, 0, 1, 0, 0, 0]))
    }

    @Test func stripAllKeepsOnlyTheColourAndTheNeededOrientation() throws {
        let (run, path, folder) = try Self.crop(["--strip", "all"], to: "out.jpg")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        #expect(try JPEGDecoder(file: InputFile(path: path)).exif == nil)
        let kept = try Self.crop(["--strip", "all", "--keep-orientation"], to: "kept.jpg")
        defer { try? FileManager.default.removeItem(at: kept.folder) }
        let exif = try #require(try JPEGDecoder(file: InputFile(path: kept.path)).exif)
        #expect(try ExifOrientation.read(tiff: exif) == .rotate90Clockwise)
        #expect(!Self.contains(exif, "MediatoolCam"))
    }

    @Test func keepOrientationKeepsTheTagOfTheStoredPixels() throws {
        let (run, path, folder) = try Self.crop(["--keep-orientation"], to: "out.png")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        let exif = try #require(try PNGChunks.scan(file: InputFile(path: path)).exif)
        #expect(try ExifOrientation.read(tiff: exif) == .rotate90Clockwise)
        #expect(Self.contains(exif, "MediatoolCam"))
    }
}
