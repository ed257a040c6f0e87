import Foundation
import ImageCodecs
import Imaging
import JPEGCodec
import FileIO
import PNGCodec
import Testing
import TestSupport

/// A crop keeps the picture's EXIF where the output can hold it, made true of the crop.
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

    /// The payload of a WebP file's RIFF chunk `name`.
    static func webpChunk(_ name: String, in bytes: [UInt8]) -> [UInt8]? {
        var at = 12
        while at + 8 <= bytes.count {
            let size = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]) << 16 | Int(bytes[at + 7]) << 24
            if bytes[at..<(at + 4)].elementsEqual(name.utf8) { return Array(bytes[(at + 8)..<min(bytes.count, at + 8 + size)]) }
            at += 8 + size + (size & 1)
        }
        return nil
    }

    static func exif(of path: String) throws -> [UInt8]? {
        let file = try InputFile(path: path)
        if path.hasSuffix(".jpg") { return try JPEGDecoder(file: file).exif }
        if path.hasSuffix(".png") { return try PNGChunks.scan(file: file).exif }
        return webpChunk("EXIF", in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test(arguments: ["out.jpg", "out.png", "out.webp"])
    func dateCameraAndPositionSurviveWithTheOrientationReset(name: String) throws {
        let (run, path, folder) = try Self.crop(["--location", "keep"], to: name)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [])
        let exif = try #require(try Self.exif(of: path))
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

    @Test(arguments: ["out.jpg", "out.webp"])
    func stripGPSLeavesNoPositionInTheFile(name: String) throws {
        let (run, path, folder) = try Self.crop(["--strip", "gps"], to: name)
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

    /// XMP goes with the crop, its orientation made the crop's; the ICC profile into WebP's ICCP chunk.
    @Test(arguments: ["out.jpg", "out.webp", "out.png"])
    func xmpAndTheProfileAreCarried(name: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(name).path
        let run = try ToolRun.run(["crop", "--rect", "1,1,8,8", Fixture.path("pictures/xmp-icc.jpg"), "-o", path])
        #expect(run.status == 0 && run.errorLines == [])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let xmp: [UInt8]
        if name.hasSuffix(".jpg") {
            let decoder = try JPEGDecoder(file: InputFile(path: path))
            xmp = try #require(decoder.xmp)
            #expect(decoder.iccProfile == [UInt8](try Fixture.data("pictures/profile.icc")))
        } else if name.hasSuffix(".png") {
            xmp = try #require(try PNGChunks.scan(file: InputFile(path: path)).xmp)
        } else {
            xmp = try #require(Self.webpChunk("XMP ", in: bytes))
            #expect(Self.webpChunk("ICCP", in: bytes) == [UInt8](try Fixture.data("pictures/profile.icc")))
        }
        #expect(Self.contains(xmp, "Lighthouse at dusk"))
        #expect(XMPOrientation.read(xmp: xmp) == .identity)
    }
}

extension CropMetadataTests {
    /// Where a PNG file's chunk `name` starts, if it has one.
    static func pngChunkOffset(_ name: String, in bytes: [UInt8]) -> Int? {
        var at = 8
        while at + 8 <= bytes.count {
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if bytes[(at + 4)..<(at + 8)].elementsEqual(name.utf8) { return at }
            at += 12 + length
        }
        return nil
    }

    /// The payload of a PNG file's chunk `name`.
    static func pngChunk(_ name: String, in bytes: [UInt8]) -> [UInt8]? {
        guard let at = pngChunkOffset(name, in: bytes) else { return nil }
        let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        return Array(bytes[(at + 8)..<min(bytes.count, at + 8 + length)])
    }
}
