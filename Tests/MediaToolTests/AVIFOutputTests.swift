import Foundation
import Testing
import TestSupport

/// `--format avif` (issue 55): every AVIF written decodes alike in libheif's heif-convert and in
/// pillow-heif (its own libheif and aom, from PyPI), close to the PNG of the same pixels; colour,
/// alpha and orientation kept; what AVIF cannot be here is refused in one line.
@Suite struct AVIFOutputTests {
    static let python = Fixture.root.deletingLastPathComponent().appendingPathComponent(".build/references/bin/python").path
    static let script = Fixture.root.deletingLastPathComponent().appendingPathComponent("Tests/MediaToolTests/Scripts/decode_avif.py").path
    static let heifConvert = "/usr/bin/heif-convert"

    /// The AVIF's pixels as pillow-heif decodes them, and what it says of the file.
    static func pillowHeif(_ avif: String, in folder: URL, profileOf source: String? = nil) throws -> (pixels: DecodedPNG, facts: [String: Any]) {
        let png = folder.appendingPathComponent(URL(fileURLWithPath: avif).lastPathComponent + ".pillow.png").path
        let facts = try pillowHeifFacts(avif, png: png, arguments: source.map { ["--profile-of", $0] } ?? [])
        return (try DecodedPNG(path: png), facts)
    }

    /// What pillow-heif says of the AVIF, and the samples of the pixels at `points`.
    static func pillowHeifFacts(_ avif: String, png: String = "/dev/null", arguments: [String] = []) throws -> [String: Any] {
        let run = try ChildProcess.run(python, [script, avif, png] + arguments)
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        return try #require(try JSONSerialization.jsonObject(with: run.standardOutput) as? [String: Any])
    }

    /// The AVIF's pixels as heif-convert (Debian's libheif and dav1d) decodes them.
    static func heifConverted(_ avif: String, in folder: URL) throws -> DecodedPNG {
        let png = folder.appendingPathComponent(URL(fileURLWithPath: avif).lastPathComponent + ".libheif.png").path
        let run = try ChildProcess.run(heifConvert, [avif, png])
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        return try DecodedPNG(path: png)
    }

    static var referencesInstalled: Bool {
        get throws { try Requirement.tool(python) && Requirement.tool(heifConvert) }
    }

    /// A photo at the default quality: both decoders give the same picture, within 36 dB of the
    /// PNG mediatool writes of the same size (the issue's bar), and the file is tagged sRGB.
    @Test(.enabled(if: try referencesInstalled))
    func aThumbnailDecodesAlikeInBothDecodersAndCloseToThePNG() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let avif = folder.appendingPathComponent("photo.avif").path, png = folder.appendingPathComponent("photo.png").path
        for output in [avif, png] {
            let run = try ToolRun.run(["thumbnail", "--size", "160", Fixture.path("hdr/photo-sdr.png"), "-o", output])
            #expect(run.status == 0 && run.errorLines.isEmpty, "\(run.standardError)")
        }
        let ours = try DecodedPNG(path: png)
        let (pillow, facts) = try Self.pillowHeif(avif, in: folder)
        let libheif = try Self.heifConverted(avif, in: folder)
        #expect(facts["mode"] as? String == "RGB" && facts["width"] as? Int == ours.width && facts["height"] as? Int == ours.height)
        #expect(pillow.bytes.count == ours.bytes.count && libheif.bytes.count == ours.bytes.count)
        let fromPillow = peakSignalToNoise(pillow.bytes, ours.bytes), fromLibheif = peakSignalToNoise(libheif.bytes, ours.bytes)
        #expect(fromPillow >= 36 && fromLibheif >= 36, "pillow-heif \(fromPillow) dB, heif-convert \(fromLibheif) dB")
        #expect(peakSignalToNoise(pillow.bytes, libheif.bytes) >= 45)
        // nclx: BT.709 primaries, sRGB transfer, BT.601 matrix; read by exiftool.
        let tags = try ChildProcess.run("/usr/bin/exiftool", ["-s", "-s", "-s", "-n", "-ColorPrimaries", "-TransferCharacteristics",
                                                              "-MatrixCoefficients", avif])
        #expect(String(decoding: tags.standardOutput, as: UTF8.self).split(separator: "\n") == ["1", "13", "6"])
    }

    /// One --quality for every format: AVIF at JPEG's quality is smaller than the JPEG and looks
    /// no worse (the mapping of docs/avif.md), at the default and at a low quality.
    @Test(.enabled(if: try referencesInstalled), arguments: [90, 60])
    func atOneQualityAVIFIsSmallerThanJPEGAndNoWorse(quality: Int) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var made: [String: (bytes: Int, psnr: Double)] = [:]
        let source = try DecodedPNG(path: Fixture.path("hdr/photo-sdr.png"))
        for format in ["avif", "jpg"] {
            let output = folder.appendingPathComponent("photo.\(format)").path
            let run = try ToolRun.run(["thumbnail", "--quality", String(quality), Fixture.path("hdr/photo-sdr.png"), "-o", output])
            #expect(run.status == 0, "\(run.standardError)")
            let png = folder.appendingPathComponent("decoded-\(format).png").path
            let decoded = try ChildProcess.run(format == "avif" ? Self.heifConvert : "/usr/bin/convert", [output, png])
            #expect(decoded.status == 0)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int)
            made[format] = (size, peakSignalToNoise(try DecodedPNG(path: png).bytes, source.bytes))
        }
        let avif = try #require(made["avif"]), jpeg = try #require(made["jpg"])
        #expect(avif.bytes < jpeg.bytes, "AVIF \(avif.bytes) B, JPEG \(jpeg.bytes) B")
        #expect(avif.psnr >= jpeg.psnr - 1, "AVIF \(avif.psnr) dB, JPEG \(jpeg.psnr) dB")
    }

    /// A crop keeps the picture's ICC profile (beside the nclx), as the other formats do.
    @Test(.enabled(if: try referencesInstalled))
    func aCropKeepsTheICCProfile() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let avif = folder.appendingPathComponent("crop.avif").path
        let run = try ToolRun.run(["crop", "--rect", "0,0,30,20", Fixture.path("pictures/icc.jpg"), "-o", avif])
        #expect(run.status == 0, "\(run.standardError)")
        let (_, facts) = try Self.pillowHeif(avif, in: folder, profileOf: Fixture.path("pictures/icc.jpg"))
        #expect(facts["has_icc"] as? Bool == true && facts["same_icc"] as? Bool == true)
    }

    /// Alpha is kept: a transparent picture's AVIF has an alpha plane within a few levels.
    @Test(.enabled(if: try referencesInstalled))
    func transparencyIsKept() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let avif = folder.appendingPathComponent("alpha.avif").path
        let run = try ToolRun.run(["thumbnail", Fixture.path("pictures/rgba8.png"), "-o", avif])
        #expect(run.status == 0, "\(run.standardError)")
        let (pillow, facts) = try Self.pillowHeif(avif, in: folder)
        #expect(facts["mode"] as? String == "RGBA")
        let source = try DecodedPNG(path: Fixture.path("pictures/rgba8.png"))
        let alpha = { (picture: DecodedPNG) in stride(from: 3, to: picture.bytes.count, by: 4).map { Int(picture.bytes[$0]) } }
        #expect(zip(alpha(pillow), alpha(source)).allSatisfy { abs($0 - $1) <= 8 }, "\(alpha(pillow)) against \(alpha(source))")
        // An icon at the default quality is close to its PNG (its quality is raised: docs/avif.md).
        let colour = { (picture: DecodedPNG) in picture.bytes.enumerated().filter { $0.offset % 4 != 3 }.map(\.element) }
        #expect(peakSignalToNoise(colour(pillow), colour(source)) >= 36)
    }

    /// `--keep-orientation` keeps the stored pixels and says how to show them in HEIF's own
    /// boxes (irot/imir), which readers apply: pillow-heif shows the crop upright.
    @Test(.enabled(if: try referencesInstalled))
    func aKeptOrientationIsShownUpright() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let kept = folder.appendingPathComponent("kept.avif").path, upright = folder.appendingPathComponent("upright.png").path
        let rect = ["--rect", "0,0,40,30"]
        #expect(try ToolRun.run(["crop", "--keep-orientation"] + rect + [Fixture.path("pictures/orientation6.jpg"), "-o", kept]).status == 0)
        #expect(try ToolRun.run(["crop"] + rect + [Fixture.path("pictures/orientation6.jpg"), "-o", upright]).status == 0)
        let (shown, facts) = try Self.pillowHeif(kept, in: folder)
        let expected = try DecodedPNG(path: upright)
        #expect(facts["width"] as? Int == expected.width && facts["height"] as? Int == expected.height)
        let psnr = peakSignalToNoise(shown.bytes, expected.bytes)
        #expect(psnr >= 28, "\(psnr) dB")
    }

    /// Storyboard sheets and ingest renditions are written as AVIF when asked.
    @Test(.enabled(if: try referencesInstalled))
    func storyboardSheetsAndIngestRenditionsAreAVIF() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let vtt = folder.appendingPathComponent("board.vtt").path
        let board = try ToolRun.run(["storyboard", "--format", "avif", "--count", "4", Fixture.path("video/counter.mp4"), "--vtt", vtt])
        #expect(board.status == 0, "\(board.standardError)")
        #expect(try String(contentsOfFile: vtt, encoding: .utf8).contains(".avif#xywh="))
        let recipe = folder.appendingPathComponent("recipe.json")
        try Data(#"{"renditions": [{"name": "small", "size": "64", "format": "avif"}], "storyboard": false, "preview": false}"#.utf8).write(to: recipe)
        let out = folder.appendingPathComponent("out")
        let ingest = try ToolRun.run(["ingest", "--recipe", recipe.path, "--out-dir", out.path, "--json", Fixture.path("pictures/camera.jpg")])
        #expect(ingest.status == 0, "\(ingest.standardError)")
        let rendition = out.appendingPathComponent("camera.jpg.small.avif").path
        #expect(ingest.output.contains(#""format":"avif""#), "\(ingest.output)")
        let (_, facts) = try Self.pillowHeif(rendition, in: folder)
        #expect(facts["mode"] as? String == "RGB" && facts["width"] as? Int == 61 && facts["height"] as? Int == 41)
        for sheet in try FileManager.default.contentsOfDirectory(atPath: folder.path) where sheet.hasPrefix("board") && sheet.hasSuffix(".avif") {
            _ = try Self.heifConverted(folder.appendingPathComponent(sheet).path, in: folder)
        }
    }

    /// HDR kept as HDR (issue 55 item 2): a 10-bit AVIF tagged BT.2020 with the source's transfer,
    /// of a video's frame and of an HDR photo; the 75% HLG bars' white is 0.75 of the signal, as
    /// in the 16-bit PNG `--hdr keep` writes. SDR outputs stay 8-bit sRGB.
    @Test(.enabled(if: try referencesInstalled), arguments: [("hdr/bars-hlg.mp4", 18), ("hdr/photo-pq.mp4", 16), ("hdr/photo-hlg.avif", 18), ("hdr/photo-pq.avif", 16)])
    func hdrKeptIsTenBitWithTheSourcesTransfer(fixture: String, transfer: Int) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let avif = folder.appendingPathComponent("hdr.avif").path
        let run = try ToolRun.run(["thumbnail", "--hdr", "keep"] + (fixture.hasSuffix(".mp4") ? ["--at", "0"] : []) + [Fixture.path(fixture), "-o", avif])
        #expect(run.status == 0 && run.errorLines.isEmpty, "\(run.standardError)")
        let facts = try Self.pillowHeifFacts(avif, arguments: ["--at", "8,8"])
        #expect(facts["bit_depth"] as? Int == 10)
        #expect(facts["nclx"] as? [Int] == [9, transfer, 9, 1])
        if fixture == "hdr/bars-hlg.mp4" {
            let white = try #require((facts["at"] as? [[Int]])?.first)
            #expect(white.allSatisfy { abs($0 - 49151) <= 400 }, "\(white)")
        }
        let sdr = folder.appendingPathComponent("sdr.avif").path
        #expect(try ToolRun.run(["thumbnail"] + (fixture.hasSuffix(".mp4") ? ["--at", "0"] : []) + [Fixture.path(fixture), "-o", sdr]).status == 0)
        let sdrFacts = try Self.pillowHeifFacts(sdr)
        #expect(sdrFacts["bit_depth"] as? Int == 8 && sdrFacts["nclx"] as? [Int] == [1, 13, 6, 1])
    }

    /// An HDR AVIF of odd sides keeps every pixel (AV1's chroma rounds up; H.264's would not).
    @Test(.enabled(if: try referencesInstalled))
    func hdrKeptAtAnOddSizeKeepsEveryPixel() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let avif = folder.appendingPathComponent("odd.avif").path
        let run = try ToolRun.run(["thumbnail", "--hdr", "keep", "--size", "61", Fixture.path("hdr/photo-hlg.avif"), "-o", avif])
        #expect(run.status == 0 && run.errorLines.isEmpty, "\(run.standardError)")
        let facts = try Self.pillowHeifFacts(avif)
        #expect(facts["width"] as? Int == 61 && facts["height"] as? Int == 34 && facts["bit_depth"] as? Int == 10)
    }

    /// aom 3.6.0 (Debian 12's) encodes pictures over 8192x4352 wrongly: such an AVIF is refused
    /// in one line, nothing written, though the memory would allow it.
    @Test func anAVIFLargerThanAomEncodesRightIsRefused() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let avif = folder.appendingPathComponent("big.avif").path
        // 7400x4974: 36.8 million pixels, over the 35.7 million of 8192x4352.
        let run = try ToolRun.run(["thumbnail", "--size", "7400", "--enlarge", "--max-memory", "4G", Fixture.path("pictures/camera.jpg"), "-o", avif],
                                  deadline: 120)
        #expect(run.status != 0 && run.errorLines.count == 1, "\(run.standardError)")
        #expect(run.standardError.contains("an AVIF of 7400x4974 is larger than Debian 12's aom 3.6 encodes correctly"), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: avif))
        // HDR kept goes through FFmpeg's aom, the same aom: refused alike (8000x4500, 36 million).
        let hdr = try ToolRun.run(["thumbnail", "--hdr", "keep", "--size", "8000", "--enlarge", "--max-memory", "4G",
                                   Fixture.path("hdr/photo-hlg.avif"), "-o", avif], deadline: 120)
        #expect(hdr.status != 0 && hdr.errorLines.count == 1, "\(hdr.standardError)")
        #expect(hdr.standardError.contains("an AVIF of 8000x4500 is larger than Debian 12's aom 3.6 encodes correctly"), "\(hdr.standardError)")
        #expect(!FileManager.default.fileExists(atPath: avif))
    }

    /// What AVIF is not here is refused in one line before any work: without loss, HDR kept in
    /// a format without it, an effort for another format, an encoder over --max-memory (no file left).
    @Test func whatAVIFCannotBeIsRefusedInOneLine() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let avif = folder.appendingPathComponent("out.avif").path
        let refusals: [([String], String)] = [
            (["crop", "--lossless", "--rect", "0,0,8,8", Fixture.path("pictures/camera.jpg"), "-o", avif], "AVIF is always written with loss"),
            (["thumbnail", "--hdr", "keep", "--at", "0", Fixture.path("hdr/bars-hlg.mp4"), "-o", folder.appendingPathComponent("out.webp").path],
             "--hdr keep writes 16-bit PNG with a cICP chunk or 10-bit AVIF: webp holds 8 bits"),
            (["thumbnail", "--effort", "5", Fixture.path("pictures/camera.jpg"), "-o", folder.appendingPathComponent("out.jpg").path], "--effort is for AVIF"),
            (["thumbnail", "--effort", "10", Fixture.path("pictures/camera.jpg"), "-o", avif], "--effort takes 0 to 9"),
            // 4000x2689 pixels, 32 bytes each for aom and its copies, and 16 MiB: 345 MiB.
            (["thumbnail", "--size", "4000", "--enlarge", "--max-memory", "128M", Fixture.path("pictures/camera.jpg"), "-o", avif],
             "encoding a 4000x2689 AVIF needs 345 MiB of memory, over the limit of 128 MiB (--max-memory)"),
            // A storyboard's sheet beside the frames its decoder holds: refused at once, not waited for.
            (["storyboard", "--format", "avif", "--count", "2500", "--tile", "50x50", "--max-memory", "100M",
              Fixture.path("video/counter.mp4"), "--vtt", folder.appendingPathComponent("board.vtt").path],
             "encoding a 8000x1000 AVIF needs 261 MiB of memory beside the 36 KiB its decoding holds, over the limit of 100 MiB"),
            // An error after a sheet's file is open is the job's, with the sandbox on as off (the
            // worker closing the sheet empty was reported as "wrote nothing and said it was done").
            (["storyboard", "--format", "avif", "--count", "600", "--tile", "1x600",
              Fixture.path("video/counter.mp4"), "--vtt", folder.appendingPathComponent("tall.vtt").path],
             "an AVIF of 160x12000 is larger than Debian 12's aom 3.6 encodes correctly (8192x4352 pixels, at most 16384 wide and 8704 high)"),
        ]
        for (arguments, expected) in refusals {
            let run = try ToolRun.run(arguments)
            #expect(run.status != 0 && run.errorLines.count == 1 && run.standardError.contains(expected), "\(arguments): \(run.standardError)")
            #expect(!FileManager.default.fileExists(atPath: avif), "\(arguments)")
        }
    }
}

/// The `<picture>` set (issue 55): a rendition asked in several formats is one reduction written
/// in each, listed best first with its MIME type and bytes, so a template can write `<source>` lines.
@Suite struct PictureSetTests {
    @Test(.enabled(if: try AVIFOutputTests.referencesInstalled))
    func aRenditionInSeveralFormatsIsOneReductionListedBestFirst() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recipe = folder.appendingPathComponent("recipe.json")
        // Listed worst first: the manifest orders them AVIF, WebP, JPEG whatever the recipe says.
        try Data(#"{"renditions": [{"name": "card", "size": "120", "formats": ["jpeg", "webp", "avif"], "quality": 90}], "storyboard": false, "preview": false}"#.utf8)
            .write(to: recipe)
        let out = folder.appendingPathComponent("out")
        let run = try ToolRun.run(["ingest", "--recipe", recipe.path, "--out-dir", out.path, "--json", Fixture.path("hdr/photo-sdr.png")])
        #expect(run.status == 0, "\(run.standardError)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: run.standardOutput) as? [String: Any])
        let entries = try #require(manifest["renditions"] as? [[String: Any]])
        #expect(entries.map { $0["mime"] as? String } == ["image/avif", "image/webp", "image/jpeg"])
        #expect(entries.allSatisfy { $0["name"] as? String == "card" && $0["width"] as? Int == 120 && $0["height"] as? Int == 68 })
        // Each file is what its entry says: its bytes, and (decoded by references) the same picture.
        var decoded: [DecodedPNG] = []
        for entry in entries {
            let path = try #require(entry["path"] as? String)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            #expect(entry["bytes"] as? Int == size)
            let png = folder.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent + ".png").path
            let converted = try ChildProcess.run(path.hasSuffix(".avif") ? AVIFOutputTests.heifConvert : "/usr/bin/convert", [path, png])
            #expect(converted.status == 0)
            decoded.append(try DecodedPNG(path: png))
        }
        for other in decoded.dropFirst() {
            #expect(peakSignalToNoise(decoded[0].bytes, other.bytes) >= 30)
        }
    }
}
