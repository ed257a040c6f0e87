import Foundation
import Glibc
import FileIO
import Testing
import TestSupport

/// Issue 23: what a red team found. Each test failed before its fix.
@Suite struct FieldRoundThreeTests {
    static func copy(_ fixture: String, to path: URL) throws {
        try FileManager.default.copyItem(atPath: Fixture.path(fixture), toPath: path.path)
    }

    // MARK: Outputs never replace an input of the run

    @Test(arguments: [(["--count", "3"], "a.sheet-1.jpg"), (["--count", "3", "--tile", "none"], "a.1.jpg")])
    func aStoryboardNeverReplacesAnotherInput(options: [String], victim: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.copy("video/counter.mp4", to: folder.appendingPathComponent("a.mp4"))
        // A video whose name is what the first video's storyboard would write.
        try Self.copy("video/counter.mkv", to: folder.appendingPathComponent(victim))
        let run = try ToolRun.run(["storyboard", "a.mp4", victim, "--overwrite"] + options, in: folder)
        #expect(run.status == 1)
        #expect(run.errorLines.contains("mediatool: a.mp4: output is an input: \(victim) (inputs are never written to)"), "\(run.errorLines)")
        #expect(FileManager.default.contents(atPath: folder.appendingPathComponent(victim).path) == (try Fixture.data("video/counter.mkv")))
    }

    @Test func aStoryboardPageNeverReplacesAnInput() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.copy("video/counter.mp4", to: folder.appendingPathComponent("a.mp4"))
        let run = try ToolRun.run(["storyboard", "a.mp4", "--count", "2", "--html", "a.mp4", "--overwrite"], in: folder)
        #expect(run.status == 64)
        #expect(run.errorLines == ["mediatool: output is an input: a.mp4 (inputs are never written to) (see 'mediatool storyboard --help')"])
        #expect(FileManager.default.contents(atPath: folder.appendingPathComponent("a.mp4").path) == (try Fixture.data("video/counter.mp4")))
    }

    /// `pack-array -o a.txt --overwrite <a.txt`, `- -o /proc/self/fd/0`, `-o` a link to the file read.
    @Test(arguments: ["a.txt", "/proc/self/fd/0", "link"], ["pack-array", "pack-doubles"])
    func packingNeverReplacesTheFileStandardInputReads(output: String, command: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("a.txt")
        try Data("1 2 3\n".utf8).write(to: text)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link").path, withDestinationPath: "a.txt")
        let type = command == "pack-array" ? ["--type", "f64"] : []
        let run = try ChildProcess.run(ToolRun.executable.path, [command] + type + ["-", "-o", output, "--overwrite"],
                                       standardInput: FileHandle(forReadingAtPath: text.path), directory: folder)
        #expect(run.status == 64)
        #expect(String(decoding: run.standardError, as: UTF8.self).contains("output is an input"))
        #expect(try String(contentsOf: text, encoding: .utf8) == "1 2 3\n")
    }

    // MARK: Names as bytes in links

    /// `caf\xe9.mp4` (Latin-1) became `caf%F4%8F%BF%A9...` in the WebVTT and the page: the bytes of
    /// the scalar standing for 0xE9, not the name's own byte.
    @Test func aNameThatIsNotUTF8IsLinkedByItsOwnBytes() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = Array(folder.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".mp4".utf8)
        let data = try Fixture.data("video/counter.mp4")
        let fd = (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) } }
        #expect(fd >= 0)
        _ = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, data.count) }
        close(fd)
        let run = try ToolRun.run(["storyboard", "--count", "2", "--html", "page.html", "."], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        // Foundation cannot open a name that is not UTF-8: read it by its bytes.
        let vtt = Array(folder.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".vtt".utf8) + [0]
        let file = vtt.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { fopen($0.baseAddress!, "r") } }
        let opened = try #require(file)
        var bytes: [UInt8] = []
        while case let byte = fgetc(opened), byte != EOF { bytes.append(UInt8(byte)) }
        fclose(opened)
        let track = String(decoding: bytes, as: UTF8.self)
        #expect(track.contains("caf%E9.sheet-1.jpg#xywh="), "\(track)")
        let page = try String(contentsOf: folder.appendingPathComponent("page.html"), encoding: .utf8)
        #expect(page.contains("\"caf%E9.mp4\""), "the page links the video by its name's bytes")
    }

    // MARK: Usage that was refused or misadvised

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
        try Self.copy("video/counter.mp4", to: folder.appendingPathComponent("s.mp4"))
        try Self.copy("video/counter.mkv", to: folder.appendingPathComponent("s.mkv"))
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
        for name in ["a", "b", "c", "d"] { try Self.copy("pictures/orientation1.jpg", to: folder.appendingPathComponent("jl/\(name).jpg")) }
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
        (["help", "nosuch"], "mediatool: no subcommand 'nosuch': the subcommands are thumbnail, storyboard, preview, crop, probe, dump-doubles, pack-doubles, dump-array, pack-array (see 'mediatool --help')"),
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
        #expect(storyboard.contains("The sheets' format: jpeg, png or webp (default:"))
        for command in ["thumbnail", "storyboard"] {
            let help = try ToolRun.run([command, "--help"]).output
            #expect(!help.contains("crop of a JPEG"), "\(command)")
            #expect(!help.contains("source's own"), "\(command)")
        }
    }

    /// `-j1` is `-j 1`, as getopt reads it.
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
                      (["thumbnail"], "not a media file FFmpeg can open: Invalid data found when processing input")])
    func aStreamIsRecognisedBeforeItIsCopied(command: [String], message: String) throws {
        let output = try ScratchOutput("out.png")
        // A writer that would block once the pipe is full and nobody reads: the run must not wait for all of it.
        let zeros = Data(count: 64 << 20)
        let run = try ToolRun.run(command + ["-", "-o", output.path], input: zeros)
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: <stdin>: \(message)"])
    }

    // MARK: Two inputs never write one output

    @Test func twoSpellingsOfOneOutputAreACollision() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("d"), withIntermediateDirectories: true)
        try Self.copy("pictures/orientation1.png", to: folder.appendingPathComponent("d/a.png"))
        try Self.copy("pictures/orientation1.jpg", to: folder.appendingPathComponent("d/a.jpg"))
        let run = try ToolRun.run(["crop", "--rect", "0,0,2,2", "d/a.png", "./d/a.jpg"], in: folder)
        #expect(run.status == 64)
        #expect(run.errorLines.first?.hasPrefix("mediatool: d/a.png and ./d/a.jpg would both write ./d/a.crop.png") == true, "\(run.errorLines)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("d/a.crop.png").path))
    }
}

/// Issue 23: limits known from headers and stream parameters, before any decoder allocates.
@Suite struct DecodeLimitTests {
    @Test func aLosslessCropKeepsToTheMemoryLimit() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A small CMYK JPEG whose frame header claims 16370x16370: TurboJPEG took 2.1 GB for it.
        var bytes = [UInt8](try Fixture.data("pictures/cmyk.jpg"))
        var index = 2
        while index + 9 < bytes.count {
            let marker = bytes[index + 1], length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xC2).contains(marker) {
                bytes.replaceSubrange((index + 5)..<(index + 9), with: [0x3F, 0xF2, 0x3F, 0xF2])
                break
            }
            index += 2 + length
        }
        let bomb = folder.appendingPathComponent("bomb.jpg")
        try Data(bytes).write(to: bomb)
        let run = try ToolRun.run(["crop", "--lossless", "--rect", "0,16352,16,16", bomb.path, "-o", folder.appendingPathComponent("out.jpg").path])
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(bomb.path): cropping from this 16370x16370 picture needs 2046 MiB of memory, over the limit of 1024 MiB (--max-memory)"])
    }

    /// 200000000x1 16-bit RGBA: libpng cleared a 1.5 GB row before the limit was checked.
    @Test func aWidePNGIsRefusedFromItsHeader() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return Self.bigEndian(UInt32(data.count)) + body + Self.bigEndian(Self.crc32(body))
        }
        let header = Self.bigEndian(200_000_000) + Self.bigEndian(1) + [16, 6, 0, 0, 0]
        // A valid zlib stream of a few zero bytes: the picture's data is never reached.
        let idat: [UInt8] = [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]
        let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", idat) + chunk("IEND", [])
        let input = folder.appendingPathComponent("wide.png")
        try Data(png).write(to: input)
        let run = try ToolRun.run(["crop", "--rect", "0,0,10,1", input.path, "-o", folder.appendingPathComponent("out.png").path])
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(input.path): cropping from this 200000000x1 picture needs 6104 MiB of memory, over the limit of 1024 MiB (--max-memory)"])
    }

    @Test(arguments: [(["--max-pixels", "1000000"], "2000x2000 is 4000000 pixels, over the limit of 1000000 (--max-pixels)"),
                      (["--max-memory", "16M"], "decoding this 2000x2000 picture needs 62 MiB of memory, over the limit of 16 MiB (--max-memory)")])
    func aVideoFrameOverTheLimitsIsRefused(limit: [String], message: String) throws {
        let output = try ScratchOutput("out.png")
        let video = Fixture.path("video/large-png-frame.mkv")
        for command in [["thumbnail", video, "-o", output.path], ["storyboard", "--count", "2", video, "--out-dir", output.folder.path]] {
            let run = try ToolRun.run(command + limit)
            #expect(run.status == 1)
            #expect(run.errorLines.first == "mediatool: \(video): \(message)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.folder.path).isEmpty)
        // Within the limits, the same frame is made.
        #expect(try ToolRun.run(["thumbnail", video, "-o", output.path]).status == 0)
    }

    /// A cover picture over the limits costs nothing when no cover is asked for, and is refused when one is.
    @Test func aCoverOverTheLimitsIsNeverDecoded() throws {
        let output = try ScratchOutput("out.png")
        let video = Fixture.path("video/large-cover.mp4")
        let frame = try ToolRun.run(["thumbnail", "--at", "0", "--max-pixels", "1000000", video, "-o", output.path])
        #expect(frame.status == 0, "\(frame.standardError)")
        #expect(try DecodedPNG(path: output.path).width == 64)
        let cover = try ToolRun.run(["thumbnail", "--cover", "--overwrite", "--max-pixels", "1000000", video, "-o", output.path])
        #expect(cover.status == 1)
        // MP4's covr states no size: the picture's own header says it, and the limit is named.
        #expect(cover.errorLines == ["mediatool: \(video): 2000x2000 is 4000000 pixels, over the limit of 1000000 (--max-pixels)"])
        #expect(try DecodedPNG(path: output.path).width == 64)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }
}

/// Issue 23: what the second review found.
@Suite struct SecondReviewTests {
    @Test func aPageNamedAsItsOwnWebVTTFileIsRefused() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FieldRoundThreeTests.copy("video/counter.mp4", to: folder.appendingPathComponent("v.mp4"))
        for page in ["v.vtt", "./v.sheet-1.jpg"] {
            let run = try ToolRun.run(["storyboard", "--count", "3", "v.mp4", "--html", page, "--overwrite"], in: folder)
            #expect(run.status == 1)
            #expect(run.errorLines.first?.hasPrefix("mediatool: v.mp4: --html \(page) is ") == true, "\(run.errorLines)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["v.mp4"])
    }

    /// Found by a hostile review of the Eisel-Lemire reader: digits past the largest double that
    /// it rounds to infinity were written as infinity with exit 0 (strtod's were refused); and the
    /// exact decimal of the smallest subnormal (1077 characters) was "not a number".
    @Test func decimalsPastTheLargestDoubleAreRefusedAndLongExactOnesRead() throws {
        for text in ["9e308", "1.7976931348623159e308", "-9e308", "1579126087511761954e305"] {
            let output = try ScratchOutput("o.bin")
            let run = try ToolRun.run(["pack-doubles", "-o", output.path], input: Data((text + "\n").utf8))
            #expect(run.status == 1)
            #expect(run.errorLines == ["mediatool: <stdin>: line 1, column 1: out of the range of a double: '\(text)'"])
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
        let output = try ScratchOutput("s.bin")
        // 5e-324 written out (Python's Decimal(5e-324)): "0." and 1074 digits.
        let exact = "0." + String(repeating: "0", count: 323) + "4940656458412465441765687928682213723650598026143247644255856825006755072702087518652998363616359923797965646954457177309266567103559397963987747960107818781263007131903114045278458171678489821036887186360569987307230500063874091535649843873124733972731696151400317153853980741262385655911710266585566867681870395603106249319452715914924553293054565444011274801297099995419319894090804165633245247571478690147267801593552386115501348035264934720193790268107107491703332226844753335720832431936092382893458368060106011506169809753078342277318329247904982524730776375927247874656084778203734469699533647017972677717585125660551199131504891101451037862738167250955837389733598993664809941164205702637090279242767544565229087538682506419718265533447265625"
        let run = try ToolRun.run(["pack-doubles", "-o", output.path], input: Data((exact + "\n").utf8))
        #expect(run.status == 0, "\(run.errorLines)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output.path)) == Data([1, 0, 0, 0, 0, 0, 0, 0]))
    }

    /// A storyboard of one file a frame holds every output open until all move into place together:
    /// past the soft limit on open files (1024 on Debian), it failed with "Too many open files". The
    /// tool raises the soft limit to the hard one; here the soft limit is 48, the hard one 4096.
    @Test func moreFramesThanTheSoftLimitOnOpenFiles() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["storyboard", "--tile", "none", "--count", "100", Fixture.path("video/late-keyframe.ts"),
                                   "--out-dir", folder.path], launcher: ["prlimit", "--nofile=48:4096"])
        #expect(run.status == 0 && run.standardError == "", "\(run.errorLines)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 101)
    }

    /// `-o /proc/self/fd/0` on a pipe opened the input's own write end: the run waited forever.
    @Test func packingToTheStandardInputPipeIsRefused() throws {
        let run = try ToolRun.run(["pack-doubles", "-o", "/proc/self/fd/0"], input: Data("1 2 3\n".utf8), deadline: 30)
        #expect(run.status == 64)
        #expect(run.errorLines.first?.contains("output is an input: /proc/self/fd/0") == true)
    }

    @Test func aHostilePixelAspectRatioIsWithinTheLimits() throws {
        let output = try ScratchOutput("out.png")
        let video = Fixture.path("video/wide-sar.mkv")
        let run = try ToolRun.run(["thumbnail", "--at", "0", "--max-memory", "64M", video, "-o", output.path])
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(video): decoding this 32768x4096 picture needs 2048 MiB of memory, over the limit of 64 MiB (--max-memory)"])
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// Two names that are one text in Unicode (composed and decomposed é) are two files.
    @Test func namesAreComparedAsBytes() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("in"), withIntermediateDirectories: true)
        for name in ["caf\u{E9}.png", "cafe\u{301}.png"] {
            try FieldRoundThreeTests.copy("pictures/orientation1.png", to: folder.appendingPathComponent("in/\(name)"))
        }
        let run = try ToolRun.run(["crop", "--rect", "0,0,4,4", "in", "--out-dir", "out"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.errorLines.last?.hasPrefix("mediatool: summary: 2 ok") == true, "\(run.errorLines)")
        let outputs = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path)
        #expect(outputs.count == 2)
    }

    /// An input whose own output is itself is refused (64), never passed over as an output.
    @Test func anInputThatIsItsOwnOutputIsRefusedNotPassedOver() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("in"), withIntermediateDirectories: true)
        try FieldRoundThreeTests.copy("pictures/orientation1.png", to: folder.appendingPathComponent("in/a.png"))
        try FieldRoundThreeTests.copy("pictures/orientation1.jpg", to: folder.appendingPathComponent("in/b.jpg"))
        let run = try ToolRun.run(["crop", "--rect", "0,0,4,4", "in", "--name", "{stem}.png"], in: folder)
        #expect(run.status == 64)
        #expect(run.errorLines.first?.contains("is the input") == true, "\(run.errorLines)")
    }

    /// Only names of the temporaries' own form are leftovers: a user's `.mediatool-tmp-mine.png` is kept.
    @Test func aFileNamedLikeATemporaryIsNotALeftover() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FieldRoundThreeTests.copy("pictures/orientation1.png", to: folder.appendingPathComponent("a.png"))
        #expect(try ToolRun.run(["crop", "--rect", "0,0,2,2", "a.png", "-o", ".mediatool-tmp-mine.png"], in: folder).status == 0)
        #expect(try ToolRun.run(["crop", "--rect", "0,0,2,2", "a.png", "-o", "b.png"], in: folder).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".mediatool-tmp-mine.png").path))
    }

    /// Without --out-dir, a folder of the --name template swapped for a link mid-run is refused too.
    @Test func aTemplateFolderSwappedMidRunRedirectsNothing() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        for path in ["in/sub", "outside"] { try manager.createDirectory(at: folder.appendingPathComponent(path), withIntermediateDirectories: true) }
        try manager.copyItem(atPath: Fixture.path("pictures/orientation1.png"), toPath: folder.appendingPathComponent("in/y.png").path)
        let fifo = folder.appendingPathComponent("in/0.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let holder = Glibc.open(fifo, O_RDWR)
        var holderOpen = true
        defer { if holderOpen { close(holder) } }
        let run = try ChildProcess.run(ToolRun.executable.path, ["crop", "--jobs", "1", "--rect", "0,0,2,2", "--name", "sub/{stem}.png", "in"],
                                       directory: folder) { process in
            try ChildProcess.waitUntil("the run to read the FIFO") { ChildProcess.isBlockedReading(process.processIdentifier) }
            try manager.moveItem(atPath: folder.appendingPathComponent("in/sub").path, toPath: folder.appendingPathComponent("in/sub.real").path)
            try manager.createSymbolicLink(atPath: folder.appendingPathComponent("in/sub").path, withDestinationPath: "../outside")
            close(holder)
            holderOpen = false
        }
        #expect(run.status == 1)
        #expect(String(decoding: run.standardError, as: UTF8.self).contains("mediatool: in/y.png: output in/sub/y.png would be written outside in"))
        #expect(try manager.contentsOfDirectory(atPath: folder.appendingPathComponent("outside").path) == [])
    }
}

/// Issue 23: writes below a folder that others can change, replaced files, live temporaries.
@Suite struct OutputFolderTests {
    /// With --skip-existing, an output another run made while this one worked on it is skipped, not
    /// a failure. The run is held on its FIFO input while the output appears.
    @Test func anOutputThatAppearsMidRunIsSkippedWithSkipExisting() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("a.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let picture = try Fixture.data("pictures/orientation1.png")
        let output = folder.appendingPathComponent("a.crop.png")
        let run = try ChildProcess.run(ToolRun.executable.path, ["crop", "--skip-existing", "--rect", "0,0,2,2", fifo],
                                       directory: folder) { process in
            let writer = FileHandle(forWritingAtPath: fifo)!
            try ChildProcess.waitUntil("the run to read the FIFO") { ChildProcess.isBlockedReading(process.processIdentifier) }
            try Data("made by another run".utf8).write(to: output)
            writer.write(picture)
            try writer.close()
        }
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        #expect(try Data(contentsOf: output) == Data("made by another run".utf8))
    }

    /// `mv out/sub out/sub.real; ln -s ../outside out/sub` while a --recursive batch runs sent the
    /// next outputs into outside/. The run is held on a FIFO input while the folder is swapped.
    @Test func aFolderSwappedForALinkMidRunRedirectsNothing() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        for path in ["in/sub", "out/sub", "outside"] {
            try manager.createDirectory(at: folder.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        try manager.copyItem(atPath: Fixture.path("pictures/orientation1.png"), toPath: folder.appendingPathComponent("in/sub/y.png").path)
        let fifo = folder.appendingPathComponent("in/0.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let holder = Glibc.open(fifo, O_RDWR)
        var holderOpen = true
        defer { if holderOpen { close(holder) } }
        let run = try ChildProcess.run(ToolRun.executable.path, ["crop", "--jobs", "1", "--recursive", "--rect", "0,0,2,2", "--out-dir", "out", "in"],
                                       directory: folder) { process in
            try ChildProcess.waitUntil("the run to read the FIFO") { ChildProcess.isBlockedReading(process.processIdentifier) }
            try manager.moveItem(atPath: folder.appendingPathComponent("out/sub").path, toPath: folder.appendingPathComponent("out/sub.real").path)
            try manager.createSymbolicLink(atPath: folder.appendingPathComponent("out/sub").path, withDestinationPath: "../outside")
            close(holder)
            holderOpen = false
        }
        let errors = String(decoding: run.standardError, as: UTF8.self)
        #expect(run.status == 1)
        #expect(errors.contains("mediatool: in/sub/y.png: output out/sub/y.crop.png would be written outside out"), "\(errors)")
        #expect(try manager.contentsOfDirectory(atPath: folder.appendingPathComponent("outside").path) == [])
    }

    /// Replacing by rename made a 0600 file 0644.
    @Test func aReplacedFileKeepsItsMode() throws {
        let output = try ScratchOutput("out.png")
        try Data("old".utf8).write(to: URL(fileURLWithPath: output.path))
        #expect(chmod(output.path, 0o600) == 0)
        let hardLink = output.folder.appendingPathComponent("hard-link").path
        #expect(link(output.path, hardLink) == 0)
        let run = try ToolRun.run(["crop", "--overwrite", "--rect", "0,0,2,2", Fixture.path("pictures/orientation1.png"), "-o", output.path])
        #expect(run.status == 0, "\(run.standardError)")
        var status = stat()
        #expect(stat(output.path, &status) == 0 && status.st_mode & 0o7777 == 0o600)
        #expect(try DecodedPNG(path: output.path).width == 2)
        // The README says so: a hard link to the replaced file keeps the old content.
        #expect(FileManager.default.contents(atPath: hardLink) == Data("old".utf8))
    }

    /// A temporary whose name says its process is gone, but whose lock is held (a run in another
    /// PID namespace), is live: no other run removes it. Once the lock goes, the next run does.
    @Test func aLockedTemporaryIsNeverTakenForALeftover() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: Fixture.path("pictures/orientation1.png"), toPath: folder.appendingPathComponent("a.png").path)
        let temporary = folder.appendingPathComponent(".mediatool-tmp-4194305-abc-\(AtomicOutputFile.hostTag)").path
        let held = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0)
        #expect(try ToolRun.run(["crop", "--rect", "0,0,2,2", "a.png"], in: folder).status == 0)
        #expect(FileManager.default.fileExists(atPath: temporary))
        close(held)
        #expect(try ToolRun.run(["crop", "--overwrite", "--rect", "0,0,2,2", "a.png"], in: folder).status == 0)
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }
}
