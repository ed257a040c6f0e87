import Foundation
import JPEGCodec
import FileIO
import Testing
import TestSupport

/// JPEG outputs' chroma sampling and progressive scans.
@Suite struct JPEGOutputTests {
    static func make(_ arguments: [String]) throws -> (decoder: JPEGDecoder, bytes: [UInt8]) {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.jpg").path
        let run = try ToolRun.run(arguments + ["-o", output])
        #expect(run.status == 0 && run.errorLines == [])
        return (try JPEGDecoder(file: InputFile(path: output)), [UInt8](try Data(contentsOf: URL(fileURLWithPath: output))))
    }

    @Test(arguments: [("noise420", ChromaSubsampling.s420), ("noise422", .s422), ("noise444", .s444)])
    func aCropOfAJPEGKeepsItsSampling(source: String, sampling: ChromaSubsampling) throws {
        let made = try Self.make(["crop", "--rect", "3,5,40,30", Fixture.path("pictures/\(source).jpg")])
        #expect(made.decoder.subsampling == sampling)
    }

    @Test(arguments: [ChromaSubsampling.s420, .s422, .s444])
    func subsamplingIsWhatItSays(_ sampling: ChromaSubsampling) throws {
        let made = try Self.make(["crop", "--subsampling", sampling.rawValue, "--rect", "3,5,40,30", Fixture.path("pictures/noise444.jpg")])
        #expect(made.decoder.subsampling == sampling)
    }

    @Test func thumbnailsAre420() throws {
        let made = try Self.make(["thumbnail", Fixture.path("video/counter.mp4")])
        #expect(made.decoder.subsampling == .s420)
    }

    /// SOF2 is a progressive frame, SOF0 a baseline one; a lossless crop can be made progressive too.
    @Test(arguments: [[], ["--lossless"]])
    func progressiveWritesAProgressiveFrame(_ options: [String]) throws {
        let source = Fixture.path("lossless/o1-420.jpg")
        let baseline = try Self.make(["crop", "--rect", "16,16,30,20"] + options + [source])
        let progressive = try Self.make(["crop", "--progressive", "--rect", "16,16,30,20"] + options + [source])
        #expect(CropMetadataTests.containsBytes(baseline.bytes, [0xFF, 0xC0]) && !CropMetadataTests.containsBytes(baseline.bytes, [0xFF, 0xC2]))
        #expect(CropMetadataTests.containsBytes(progressive.bytes, [0xFF, 0xC2]))
        #expect(try progressive.decoder.readRegion(x: 0, y: 0, columns: 30, rows: 20) == baseline.decoder.readRegion(x: 0, y: 0, columns: 30, rows: 20))
    }
}
