import Foundation
import Glibc
import FileIO
import Testing
import TestSupport

/// Usage that was refused or misadvised: help, messages and option spellings as a user types them.
@Suite struct UsageAdviceTests {

    @Test func aFolderOfNPYFilesNeedsNoType() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let npy = folder.appendingPathComponent("a.npy").path
        #expect(try ToolRun.run(["pack-array", "--type", "f64", "--npy", "-", "-o", npy], input: Data("1 2.5\n".utf8)).status == 0)
        let run = try ToolRun.run(["dump-array", folder.path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.output == "1.0\n2.5\n")
        try Data([0, 0]).write(to: folder.appendingPathComponent("b.bin"))
        let untyped = try ToolRun.run(["dump-array", folder.path])
        #expect(untyped.status == 64)
        #expect(untyped.errorLines.first?.contains("b.bin is not one") == true, "\(untyped.errorLines)")
    }

    @Test func aStoryboardCollisionSuggestsWhatStoryboardHas() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Fixture.copy("video/counter.mp4", to: folder.appendingPathComponent("s.mp4"))
        try Fixture.copy("video/counter.mkv", to: folder.appendingPathComponent("s.mkv"))
        let run = try ToolRun.run(["storyboard", "s.mp4", "s.mkv"], in: folder)
        #expect(run.status == 64)
        #expect(run.errorLines == ["mediatool: s.mp4 and s.mkv would both write s.vtt; a storyboard is named after its video: give them one at a time with --vtt NAME (see 'mediatool storyboard --help')"])
    }

    /// `crop jl --name '{stem}.jpg' --out-dir o` took every JPEG for an output of its own and
    /// processed none, with exit 0.
    @Test func realInputsThatLookLikeOutputsAreCropped() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("jl"), withIntermediateDirectories: true)
        for name in ["a", "b", "c", "d"] { try Fixture.copy("pictures/orientation1.jpg", to: folder.appendingPathComponent("jl/\(name).jpg")) }
        let run = try ToolRun.run(["crop", "jl", "--name", "{stem}.jpg", "--out-dir", "o", "--rect", "0,0,8,8"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.errorLines.last?.hasPrefix("mediatool: summary: 4 ok, 0 failed, 0 skipped of 4") == true, "\(run.errorLines)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("o").path).sorted() == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
        // Again, with the output folder among the inputs: its files are what this run writes, passed over and said so.
        let again = try ToolRun.run(["crop", "jl", "o", "--name", "{stem}.jpg", "--out-dir", "o", "--overwrite", "--rect", "0,0,8,8"], in: folder)
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.errorLines.last?.hasPrefix("mediatool: summary: 4 ok, 0 failed, 0 skipped of 4") == true, "\(again.errorLines)")
        #expect(again.errorLines.last?.hasSuffix(", 4 of mediatool's own outputs passed over") == true, "\(again.errorLines)")
    }

    /// Help texts and messages that leaked or lied.
    @Test(arguments: [
        (["help", "nosuch"], "mediatool: no subcommand 'nosuch': the subcommands are thumbnail, storyboard, preview, transcode, crop, strip, probe, ingest, dump-doubles, pack-doubles, dump-array, pack-array (see 'mediatool --help')"),
        (["thumb", "x.mp4"], "mediatool: no subcommand 'thumb': did you mean 'thumbnail'? (see 'mediatool --help')"),
        (["crop", "--subsampling", "444", "--rect", "0,0,1,1", "x.png"], "mediatool: --subsampling is for JPEG output, not png. (see 'mediatool crop --help')"),
        (["crop", "--subsampling", "440", "--format", "jpeg", "--rect", "0,0,1,1", "x.png"], "mediatool: The value '440' is invalid for '--subsampling <420|422|444>'. Please provide one of '420', '422' or '444'. (see 'mediatool crop --help')"),
        (["thumbnail", "--depth", "16", "--format", "jpeg", "x.mp4"], "mediatool: --depth 16 writes 16-bit PNG: jpeg holds 8 bits. (see 'mediatool thumbnail --help')"),
        (["crop", "--rect", "0,0,1,1", "x.png", "-o", ""], "mediatool: -o takes a name, not an empty one. (see 'mediatool crop --help')"),
        (["pack-array", "--type", "f64", "x.txt", "-o", ""], "mediatool: -o takes a name, not an empty one. (see 'mediatool pack-array --help')"),
        (["pack-array", "--type", "f64", "--npy", "x.txt", "-o", "/dev/null"], "mediatool: --npy writes a file whose header is completed at the end: /dev/null is a character device. (see 'mediatool pack-array --help')"),
        (["storyboard", "x.mp4", "--vtt", ""], "mediatool: --vtt takes a name, not an empty one. (see 'mediatool storyboard --help')"),
        (["storyboard", "x.mp4", "--count", "1e7"], "mediatool: The value '1e7' is invalid for '--count <count>' (see 'mediatool storyboard --help')"),
    ])
    func usageErrorsSayWhatWasMeant(arguments: [String], line: String) throws {
        let run = try ToolRun.run(arguments)
        #expect(run.status == 64)
        #expect(run.errorLines == [line])
    }

    @Test func helpShowsDefaultsAsTheyAreTypedAndOnlyWhatTheSubcommandDoes() throws {
        let storyboard = try ToolRun.run(["storyboard", "--help"]).output
        #expect(!storyboard.contains("TileArgument"))
        #expect(storyboard.contains("(default: 10x10)"))
        #expect(storyboard.contains("The sheets' format: jpeg, png, webp or avif"))
        for command in ["thumbnail", "storyboard"] {
            let help = try ToolRun.run([command, "--help"]).output
            #expect(!help.contains("crop of a JPEG"), "\(command)")
            #expect(!help.contains("source's own"), "\(command)")
        }
    }

    /// `-j1` is `-j 1`, as getopt reads it.
    /// A near misspelling is answered with the option meant; a word that spells no option nearly
    /// gets no guess (`--bogus` was answered "Did you mean '--jobs'?").
    @Test(arguments: [
        (["thumbnail", "--jobz", "2", "x.png"], "mediatool: Unknown option '--jobz'. Did you mean '--jobs'? (see 'mediatool thumbnail --help')"),
        (["thumbnail", "--bogus", "x.png"], "mediatool: Unknown option '--bogus'. (see 'mediatool thumbnail --help')"),
        (["probe", "--bogus", "x"], "mediatool: Unknown option '--bogus'. (see 'mediatool probe --help')"),
    ])
    func anUnknownOptionIsGivenOnlyANearGuess(arguments: [String], line: String) throws {
        let run = try ToolRun.run(arguments)
        #expect(run.status == 64)
        #expect(run.errorLines == [line])
    }

    @Test func aJobCountJoinedToItsOptionIsTaken() throws {
        let output = try ScratchOutput("out.png")
        let run = try ToolRun.run(["crop", "-j1", "--rect", "0,0,1,1", Fixture.path("pictures/orientation1.png"), "-o", output.path])
        #expect(run.status == 0, "\(run.standardError)")
    }

    /// A negative rect is a value, not an unknown option.
    @Test func aNegativeRectIsTakenAsTheRect() throws {
        let run = try ToolRun.run(["crop", "--rect", "-5,0,10,10", Fixture.path("pictures/orientation1.png"), "-o", "/dev/null"])
        #expect(run.errorLines == ["mediatool: \(Fixture.path("pictures/orientation1.png")): rect -5,0,10,10 is not inside the picture, 61x41 as displayed (--clamp crops the part inside)"])
    }

    /// A view rect outside the picture is named as typed, with what it became.
    @Test func aViewRectErrorShowsTheRectTyped() throws {
        let picture = Fixture.path("pictures/orientation1.png")
        let run = try ToolRun.run(["crop", "--view", "400x300", "--rect", "300,0,200,100", picture, "-o", "/dev/null"])
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(picture): rect 300,0,200,100 of the 400x300 view (45,0,32,14 of the 61x41 picture as displayed) is not inside the picture (--clamp crops the part inside)"])
    }

    /// An opaque picture with an alpha channel loses nothing as a JPEG: no warning.
    @Test func anOpaqueAlphaPictureToJPEGHasNoWarning() throws {
        let output = try ScratchOutput("out.jpg")
        // 2x2, 16-bit RGBA, every alpha 65535, in a stored (uncompressed) zlib stream.
        let rows: [UInt8] = (0..<2).flatMap { _ in [0] + (0..<2).flatMap { _ in [0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xFF, 0xFF] } }
        var adler = (a: UInt32(1), b: UInt32(0))
        for byte in rows { adler.a = (adler.a + UInt32(byte)) % 65521; adler.b = (adler.b + adler.a) % 65521 }
        let zlib = [0x78, 0x01, 0x01, UInt8(rows.count), 0, ~UInt8(rows.count), 0xFF] + rows + DecodeLimitTests.bigEndian(adler.b << 16 | adler.a)
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return DecodeLimitTests.bigEndian(UInt32(data.count)) + body + DecodeLimitTests.bigEndian(DecodeLimitTests.crc32(body))
        }
        let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", DecodeLimitTests.bigEndian(2) + DecodeLimitTests.bigEndian(2) + [16, 6, 0, 0, 0])
            + chunk("IDAT", zlib) + chunk("IEND", [])
        let input = output.folder.appendingPathComponent("opaque.png")
        try Data(png).write(to: input)
        let run = try ToolRun.run(["crop", "--rect", "0,0,2,2", input.path, "-o", output.path])
        #expect(run.status == 0)
        #expect(run.errorLines == [])
    }

    /// CSV rows all have the header's fields: the last row's missing values are empty.
    @Test func aCSVLastRowIsNotRagged() throws {
        let output = try ScratchOutput("three.bin")
        #expect(try ToolRun.run(["pack-doubles", "-", "-o", output.path], input: Data("1 2 3\n".utf8)).status == 0)
        let run = try ToolRun.run(["dump-doubles", "--format", "csv", "--header", "--columns", "2", "--index", output.path])
        #expect(run.output == "index,c0,c1\n0,1.0,2.0\n2,3.0,\n")
    }

    /// A stream that is not a picture (or not media) is refused from its first bytes: 64 MiB of
    /// zeros are not copied to a temporary file first, and the run ends before the writer does.
    @Test(arguments: [(["crop", "--rect", "0,0,1,1"], "not a PNG, JPEG, WebP, HEIF, AVIF or TIFF file"),
                      (["thumbnail"], "not a media file FFmpeg can open: its bytes are of no format FFmpeg knows: it is no video, sound or picture")])
    func aStreamIsRecognisedBeforeItIsCopied(command: [String], message: String) throws {
        let output = try ScratchOutput("out.png")
        // A writer that would block once the pipe is full and nobody reads: the run must not wait for all of it.
        let zeros = Data(count: 64 << 20)
        let run = try ToolRun.run(command + ["-", "-o", output.path], input: zeros)
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: <stdin>: \(message)"])
    }
}
