import Foundation
import FileIO
import JPEGCodec
import Testing
import TestSupport

/// `--cover` writes a file's attached picture; `--cover=prefer` falls back to a frame.
@Suite struct CoverArtTests {
    /// cover.jpg decoded by libjpeg, as RGB.
    static func coverPixels() throws -> [UInt8] {
        let decoder = try JPEGDecoder(file: InputFile(path: Fixture.path("video/cover.jpg")))
        return try decoder.readRegion(x: 0, y: 0, columns: decoder.width, rows: decoder.height)
    }

    @Test(arguments: ["cover-art.mp4", "cover-art.mkv", "cover-art.mp3", "cover-art.m4a"])
    func theCoverArtIsWritten(fixture: String) throws {
        let scratch = try ScratchOutput("cover.png")
        let run = try ToolRun.run(["thumbnail", "--cover", Fixture.path("video/\(fixture)"), "-o", scratch.path])
        #expect(run.status == 0 && run.errorLines == [])
        let picture = try DecodedPNG(path: scratch.path)
        #expect(picture.width == 48 && picture.height == 32)
        let reference = try Self.coverPixels()
        // FFmpeg's MJPEG decoder and libjpeg agree within a level or two.
        #expect(zip(picture.bytes, reference).allSatisfy { abs(Int($0) - Int($1)) <= 2 })
    }

    @Test func aFileWithoutCoverArtIsAnErrorOrAFrame() throws {
        let scratch = try ScratchOutput("cover.png")
        let source = Fixture.path("video/counter.mp4")
        let run = try ToolRun.run(["thumbnail", "--cover", source, "-o", scratch.path])
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(source): no cover art (an attached picture) in the file"])
        #expect(!FileManager.default.fileExists(atPath: scratch.path))
        let prefer = try ToolRun.run(["thumbnail", "--cover=prefer", source, "-o", scratch.path])
        #expect(prefer.status == 0)
        #expect(try DecodedPNG(path: scratch.path).width == 128)
    }

    /// Without --cover the video's own frame is written, the cover passed over.
    @Test func aFrameByDefault() throws {
        let scratch = try ScratchOutput("frame.png")
        let run = try ToolRun.run(["thumbnail", "--at", "0", Fixture.path("video/cover-art.mp4"), "-o", scratch.path])
        #expect(run.status == 0)
        #expect(try DecodedPNG(path: scratch.path).width == 64)
    }
}

/// `--stream N` chooses among several video streams.
@Suite struct VideoStreamChoiceTests {
    @Test(arguments: [([String](), 64), (["--stream", "0"], 64), (["--stream", "1"], 32)])
    func theStreamAskedForIsTheOneWritten(options: [String], width: Int) throws {
        let scratch = try ScratchOutput("frame.png")
        let run = try ToolRun.run(["thumbnail"] + options + [Fixture.path("video/two-streams.mkv"), "-o", scratch.path])
        #expect(run.status == 0 && run.errorLines == [])
        #expect(try DecodedPNG(path: scratch.path).width == width)
    }

    @Test func aStreamPastTheLastIsAnError() throws {
        let scratch = try ScratchOutput("frame.png")
        let source = Fixture.path("video/two-streams.mkv")
        let run = try ToolRun.run(["thumbnail", "--stream", "2", source, "-o", scratch.path])
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(source): no video stream 2: the file has 2 (counted from 0)"])
    }
}
