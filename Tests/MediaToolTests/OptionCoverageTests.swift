import FileIO
import Foundation
import PNGCodec
import Testing
import TestSupport

/// Options users rely on that no test checked, each able to fail.
@Suite struct OptionCoverageTests {
    /// --max-pixels N refuses a picture of N + 1 pixels (orientation1.png is 61x41, 2501), naming the
    /// limit, and takes one of N; --max-memory with a unit refuses a JPEG whose decoding needs more.
    @Test func cropLimitsAreTheOnesGiven() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = Fixture.path("pictures/orientation1.png")
        let under = try ToolRun.run(["crop", "--rect", "0,0,5,5", "--max-pixels", "2500", png, "-o", folder.appendingPathComponent("a.png").path])
        #expect(under.status == 1)
        #expect(under.errorLines == ["mediatool: \(png): 61x41 is 2501 pixels, over the limit of 2500 (--max-pixels)"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("a.png").path))
        let exact = try ToolRun.run(["crop", "--rect", "0,0,5,5", "--max-pixels", "2501", png, "-o", folder.appendingPathComponent("b.png").path])
        #expect(exact.status == 0 && exact.errorLines == [])
        #expect(try DecodedPNG(path: folder.appendingPathComponent("b.png").path).bytes == Fixture.uprightRect(x: 0, y: 0, width: 5, height: 5))

        let jpeg = Fixture.path("pictures/hp-srgb.jpg")
        let small = try ToolRun.run(["crop", "--rect", "0,0,5,5", "--max-memory", "3K", jpeg, "-o", folder.appendingPathComponent("c.png").path])
        #expect(small.status == 1)
        #expect(small.errorLines == ["mediatool: \(jpeg): cropping from this 61x41 picture needs 12 KiB of memory, over the limit of 3 KiB (--max-memory)"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("c.png").path))
        let enough = try ToolRun.run(["crop", "--rect", "0,0,5,5", "--max-memory", "1M", jpeg, "-o", folder.appendingPathComponent("d.png").path])
        #expect(enough.status == 0 && enough.errorLines == [])
    }

    static let exiftool = "/usr/bin/exiftool"

    /// The metadata groups ExifTool finds in a file.
    static func groups(_ path: String) throws -> Set<String> {
        let run = try ChildProcess.run(exiftool, ["-s", "-G1", "-a", path])
        #expect(run.status == 0)
        return Set(String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").compactMap { line in
            line.split(separator: " ").first.map { String($0.dropFirst().dropLast()) }
        })
    }

    /// --strip all in PNG and WebP output, as ExifTool reads the files: no EXIF, GPS or XMP left,
    /// the colour profile kept; without it, all of them are there (so the check can fail).
    @Test(.enabled(if: try Requirement.tool(exiftool), "ExifTool is not installed (scripts/bootstrap test installs it)"),
          arguments: ["png", "webp"])
    func stripAllLeavesOnlyTheColourProfile(format: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dropped: Set<String> = ["IFD0", "ExifIFD", "GPS", "XMP-dc", "XMP-tiff"]
        var found: Set<String> = []
        for source in ["camera.jpg", "xmp-icc.jpg"] {
            let kept = folder.appendingPathComponent("\(source).kept.\(format)").path
            let stripped = folder.appendingPathComponent("\(source).stripped.\(format)").path
            let plain = try ToolRun.run(["crop", "--rect", "2,3,20,30", "--location", "keep", Fixture.path("pictures/\(source)"), "-o", kept])
            let strip = try ToolRun.run(["crop", "--rect", "2,3,20,30", "--strip", "all", Fixture.path("pictures/\(source)"), "-o", stripped])
            #expect(plain.status == 0 && strip.status == 0, "\(plain.standardError)\(strip.standardError)")
            found.formUnion(try Self.groups(kept).intersection(dropped))
            let left = try Self.groups(stripped)
            #expect(left.intersection(dropped).isEmpty, "\(source) to \(format): \(left.intersection(dropped)) left")
            if source == "xmp-icc.jpg" { #expect(left.contains("ICC_Profile"), "\(source) to \(format): the colour profile is gone") }
        }
        #expect(found == dropped)
    }

    /// A stream is spooled to a temporary file that has no name from the start: while the run reads
    /// standard input (a PNG and 2 MB after its end, more than the first MiB that is recognised
    /// before the copy starts), TMPDIR holds nothing though the process has the copy open; after
    /// it, nothing either.
    @Test func theStandardInputSpoolHasNoName() throws {
        let temporary = try Fixture.scratchFolder()
        let folder = try Fixture.scratchFolder()
        defer {
            try? FileManager.default.removeItem(at: temporary)
            try? FileManager.default.removeItem(at: folder)
        }
        let stream = try Fixture.data("pictures/orientation1.png") + Data(count: 2_000_000)
        let input = Pipe()
        defer { try? input.fileHandleForReading.close() }
        let output = folder.appendingPathComponent("c.png").path
        let run = try ChildProcess.run(ToolRun.executable.path, ["crop", "--rect", "0,0,5,5", "-", "-o", output],
                                       standardInput: input.fileHandleForReading, environment: ["TMPDIR": temporary.path]) { process in
            try input.fileHandleForWriting.write(contentsOf: stream.prefix(1_500_000))
            try ChildProcess.waitUntil("the spool to be open") {
                let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd")) ?? []
                return fds.contains { fd in
                    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.processIdentifier)/fd/\(fd)")) ?? ""
                    return target.hasPrefix(temporary.path + "/mediatool-input-")
                }
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
            try input.fileHandleForWriting.write(contentsOf: stream.dropFirst(1_500_000))
            try input.fileHandleForWriting.close()
        }
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        #expect(try DecodedPNG(path: output).bytes == Fixture.uprightRect(x: 0, y: 0, width: 5, height: 5))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
    }

    /// Runs a set of Scripts/numpy_pack.py (its doc says what each checks): pack-array's bytes for
    /// the types other than f64 against NumPy's.
    static func expectNumPyPacksAlike(_ set: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/numpy_pack.py")
        let run = try ChildProcess.run("/usr/bin/python3", [script.path, ToolRun.executable.path, folder.path, set])
        #expect(run.status == 0, "\(set): \(String(decoding: run.standardOutput + run.standardError, as: UTF8.self))")
    }

    /// pack-array for f32, f16, bf16 and every integer type, in both byte orders: dump-array's text in
    /// every layout (--index, --hex, csv --header, json, columns) packs back to the file NumPy wrote,
    /// byte for byte; NumPy's own text packs to NumPy's tofile bytes, and with --npy --columns to a
    /// file np.load reads as the same dtype, shape and bits; bf16 is the upper half of the correctly
    /// rounded f32 rounded to nearest even (ties both ways, and just past a tie that the f32 rounds
    /// onto); f16 is the nearest f16, ties to even: references found with fractions, not by the tool.
    @Test(arguments: ["roundtrip", "numpy-text", "bf16", "f16"])
    func packArrayWritesNumPysBytes(set: String) throws {
        try Self.expectNumPyPacksAlike(set)
    }

    /// Found by the checks above, and fixed: JSON's {"value", "hex"} objects of types other than f64
    /// were refused ("expected 16 hex digits after the value (--hex), found '4C'"); i64 and u64 JSON
    /// that dump-array writes exactly were refused past 2^53; f16 rounded through the nearest f32, so
    /// a decimal just past a midpoint of two f16s whose f32 is the midpoint went to the even one
    /// (2049.0001 to 2048, not 2050), where the README says correctly rounded.
    @Test(arguments: ["roundtrip-json-hex", "roundtrip-json-64bit", "f16-double-rounding"])
    func packArrayReadsWhatDumpArrayWritesInJSONAndRoundsF16Once(set: String) throws {
        try Self.expectNumPyPacksAlike(set)
    }

    /// --npy refuses bf16, which NumPy has no dtype for, before anything is written.
    @Test func packArrayRefusesBF16InNPY() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("b.npy").path
        let run = try ToolRun.run(["pack-array", "--type", "bf16", "--npy", "-o", out], input: Data("1 2\n".utf8))
        #expect(run.status == 64)
        #expect(run.errorLines == ["mediatool: NumPy has no bfloat16 dtype: --npy cannot hold bf16 (see 'mediatool pack-array --help')"])
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    static let heifConvert = "/usr/bin/heif-convert"

    /// A 16-bit PNG's samples (big-endian pairs made integers), its size and channels.
    static func sixteenBitSamples(_ path: String) throws -> (width: Int, height: Int, channels: Int, samples: [Int]) {
        let decoder = try PNGDecoder(file: InputFile(path: path))
        try #require(decoder.layout.bitDepth == 16, "\(path) is \(decoder.layout.bitDepth)-bit")
        let bytes = try decoder.readRegion(x: 0, y: 0, columns: decoder.width, rows: decoder.height)
        let samples = stride(from: 0, to: bytes.count, by: 2).map { Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]) }
        return (decoder.width, decoder.height, decoder.layout.channels.count, samples)
    }

    /// A 10 and a 12-bit HEIC (heif/depthN.heic: 4:2:0 HEVC of 16-bit ramps, 64x48) crop to 16-bit
    /// PNG samples that are libheif's own decoding of the file (heif-convert, which writes the N-bit
    /// samples shifted up, the bits below zero) widened by repeating their top bits, exactly: not a
    /// decoding at 8 bits scaled up (which would miss the N-bit levels by up to 2 steps); and most
    /// N-bit levels lie between 8-bit ones, so the check is of more than 8 bits.
    @Test(.enabled(if: try Requirement.tool(heifConvert), "heif-convert is not installed (scripts/bootstrap test installs it)"),
          arguments: [10, 12])
    func deepHEIFCropsToSixteenBitPNG(bits: Int) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = Fixture.path("heif/depth\(bits).heic")
        let output = folder.appendingPathComponent("crop.png").path
        let run = try ToolRun.run(["crop", "--rect", "5,3,40,30", fixture, "-o", output])
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        let crop = try Self.sixteenBitSamples(output)
        #expect((crop.width, crop.height, crop.channels) == (40, 30, 3))

        let reference = folder.appendingPathComponent("libheif.png").path
        let convert = try ChildProcess.run(Self.heifConvert, [fixture, reference])
        try #require(convert.status == 0, "heif-convert: \(String(decoding: convert.standardError, as: UTF8.self))")
        let whole = try Self.sixteenBitSamples(reference)
        try #require((whole.width, whole.height, whole.channels) == (64, 48, 3))
        // The rect's N-bit levels, as heif-convert wrote them (shifted up, nothing below).
        var levels: [Int] = []
        for y in 3..<33 {
            let start: Int = (y * 64 + 5) * 3
            levels += whole.samples[start..<(start + 40 * 3)].map { (sample: Int) -> Int in sample >> (16 - bits) }
        }
        let below: Int = 1 << (16 - bits) - 1
        #expect(whole.samples.allSatisfy { $0 & below == 0 }, "heif-convert no longer shifts: the reference's reading is wrong")
        let widened = levels.map { (level: Int) -> Int in level << (16 - bits) | level >> (2 * bits - 16) }
        let differing = zip(crop.samples, widened).filter { $0 != $1 }.count
        #expect(crop.samples.count == widened.count && differing == 0, "\(differing) of \(widened.count) samples differ from libheif's")
        let between = levels.filter { $0 % (1 << (bits - 8)) != 0 }.count
        #expect(between > levels.count / 2, "only \(between) of \(levels.count) levels lie between 8-bit ones")
    }

    /// What Pillow reads as a file's ICC profile (PNG iCCP, JPEG APP2, WebP ICCP): a reader that is
    /// not mediatool's.
    static func pillowProfile(_ path: String) throws -> Data {
        let script = "import sys; from PIL import Image; sys.stdout.buffer.write(Image.open(sys.argv[1]).info.get('icc_profile') or b'')"
        let run = try ChildProcess.run("/usr/bin/python3", ["-c", script, path])
        try #require(run.status == 0, "Pillow: \(String(decoding: run.standardError, as: UTF8.self))")
        return run.standardOutput
    }

    /// ExifTool's reading of a file's XMP packet (empty when there is none).
    static func exiftoolXMP(_ path: String) throws -> Data {
        let run = try ChildProcess.run(exiftool, ["-b", "-XMP", path])
        #expect(run.status == 0)
        return run.standardOutput
    }

    static var hasPillow: Bool {
        (try? ChildProcess.run("/usr/bin/python3", ["-c", "import PIL"]).status) == 0
    }

    /// The ICC profile and XMP packet of a TIFF (tags 34675, 700) and a HEIF (colr prof, a mime
    /// item) input are carried into the crop by default (--strip none): the profile byte for byte
    /// the input's (pictures/hp-srgb.icc) as Pillow reads it, the packet byte for byte the input's as
    /// ExifTool reads both, where the format puts them (PNG iCCP and iTXt XML:com.adobe.xmp, JPEG
    /// APP2 ICC_PROFILE and APP1 of Adobe's namespace). --strip all keeps the profile and drops the
    /// packet (so the checks can tell).
    @Test(.enabled(if: try Requirement.tool(exiftool), "ExifTool is not installed (scripts/bootstrap test installs it)"),
          .enabled(if: try Requirement.met(hasPillow, "Pillow is not installed (scripts/bootstrap test installs python3-pil)")),
          arguments: ["tiff/icc-xmp.tif", "heif/icc-xmp.heic"], ["png", "jpg", "webp"])
    func iccAndXMPOfTIFFAndHEIFAreCarried(fixture: String, format: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let kept = folder.appendingPathComponent("kept.\(format)").path
        let stripped = folder.appendingPathComponent("stripped.\(format)").path
        let plain = try ToolRun.run(["crop", "--rect", "2,3,20,30", Fixture.path(fixture), "-o", kept])
        let strip = try ToolRun.run(["crop", "--rect", "2,3,20,30", "--strip", "all", Fixture.path(fixture), "-o", stripped])
        #expect(plain.status == 0 && plain.errorLines == [] && strip.status == 0, "\(plain.standardError)\(strip.standardError)")

        let profile = try Fixture.data("pictures/hp-srgb.icc")
        let packet = try Self.exiftoolXMP(Fixture.path(fixture))
        #expect(String(decoding: packet, as: UTF8.self).contains("<dc:description>Harbour cranes at noon</dc:description>"))
        #expect(try Self.pillowProfile(kept) == profile)
        #expect(try Self.exiftoolXMP(kept) == packet)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: kept)))
        switch format {
        case "png":
            #expect(CropMetadataTests.pngChunk("iCCP", in: bytes) != nil)
            let itxt = try #require(CropMetadataTests.pngChunk("iTXt", in: bytes))
            #expect(itxt.starts(with: Array("XML:com.adobe.xmp\u{0}".utf8)))
        case "jpg":
            // One APP2 segment, the first of one (3144 bytes fit).
            #expect(CropMetadataTests.containsBytes(bytes, Array("ICC_PROFILE\u{0}\u{1}\u{1}".utf8) + [UInt8](profile.prefix(16))))
            #expect(CropMetadataTests.containsBytes(bytes, Array("http://ns.adobe.com/xap/1.0/\u{0}".utf8) + [UInt8](packet)))
        default:
            break
        }
        #expect(try Self.pillowProfile(stripped) == profile)
        #expect(try Self.exiftoolXMP(stripped).isEmpty)
        if fixture.hasSuffix(".tif") && format == "png" {
            #expect(try DecodedPNG(path: kept).bytes == Fixture.uprightRect(x: 2, y: 3, width: 20, height: 30))
        }
    }

    /// The cores: a cgroup quota of 1.5 CPUs, or of a hair over 1, is rounded up to 2 (when the
    /// affinity allows 2); rounded down, it would say 1.
    @Test(.enabled(if: try Requirement.met(ProcessInfo.processInfo.activeProcessorCount >= 2, "rounding up to 2 cores needs 2 cores")),
          arguments: ["150000 100000", "100001 100000", "200000 100000"])
    func aQuotaIsRoundedUp(quota: String) throws {
        let scratch = try ScratchOutput("cpu.max")
        try Data((quota + "\n").utf8).write(to: URL(fileURLWithPath: scratch.path))
        let run = try ToolRun.run(["--version"], launcher: ["taskset", "-c", "0,1"], environment: ["MEDIATOOL_CGROUP_CPU_MAX": scratch.path])
        #expect(run.status == 0)
        #expect(run.output.split(separator: "\n").first { $0.hasPrefix("cores ") }.map(String.init) == "cores 2")
    }
}
