import Foundation
import Imaging
import Testing
import TestSupport

/// Pictures as inputs of `thumbnail`, upright, in every size asked from one decode.
@Suite struct PictureThumbnailTests {
    /// Runs `thumbnail` with `arguments` in a scratch folder (where the outputs land); the folder too.
    static func run(_ arguments: [String]) throws -> (run: ToolRun, folder: URL) {
        let folder = try Fixture.scratchFolder()
        let run = try ToolRun.run(["thumbnail"] + arguments, in: folder)
        return (run, folder)
    }

    static func decoded(_ folder: URL, _ name: String) throws -> DecodedPNG {
        try DecodedPNG(path: folder.appendingPathComponent(name).path)
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double { peakSignalToNoise(a, b) }

    static let upright = CropTests.upright

    @Test(arguments: 1...8, ["png", "jpg"])
    func everyOrientationComesOutUpright(orientation: Int, format: String) throws {
        let (run, folder) = try Self.run([Fixture.path("pictures/orientation\(orientation).\(format)"), "-o", "out.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        let picture = try Self.decoded(folder, "out.png")
        #expect((picture.width, picture.height, picture.channels) == (Self.upright.width, Self.upright.height, 3))
        let worst = zip(picture.bytes, Self.upright.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
        // PNG is exact; JPEG within what quality 95 moves a sample.
        #expect(worst <= (format == "png" ? 0 : 6))
    }

    /// HEIF's irot and imir, never the EXIF orientation iPhones also store: upright as libheif shows it.
    @Test(arguments: [2, 5, 6, 7])
    func heifTransformsComeOutUpright(orientation: Int) throws {
        let fixture = "orientation\(orientation).heic"
        let (run, folder) = try Self.run([Fixture.path("heif/\(fixture)"), "-o", "out.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        let picture = try Self.decoded(folder, "out.png")
        let reference = try HEIFCropTests.libheifDecoding(fixture)
        #expect((picture.width, picture.height) == (reference.width, reference.height))
        #expect(Self.psnr(picture.bytes, reference.bytes) > 40)
    }

    /// Reductions match Pillow's Lanczos reduction of the same picture (a reference made by
    /// scripts/fixtures/thumbnails.py), both where the filter alone reduces and past a factor of 4,
    /// where boxes are averaged first.
    @Test(arguments: [(100, 100, 67), (40, 40, 27)])
    func reductionsMatchPillowsLanczos(size: Int, width: Int, height: Int) throws {
        let (run, folder) = try Self.run([Fixture.path("thumbnails/scene.png"), "--size", "\(size)", "-o", "out.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [])
        let picture = try Self.decoded(folder, "out.png")
        #expect((picture.width, picture.height) == (width, height))
        let reference = [UInt8](try Fixture.data("thumbnails/scene-lanczos-\(width)x\(height).rgb"))
        #expect(Self.psnr(picture.bytes, reference) > 45)
    }

    @Test func everySizeIsWrittenAndReportedFromOneRun() throws {
        let input = Fixture.path("thumbnails/scene.png")
        // The --size ones first, then those of --sizes.
        let (run, folder) = try Self.run([input, "--size", "100", "--size", "40x40", "--sizes", "60x,x20", "--out-dir", ".", "--json"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        let expected = [("100", 100, 67), ("40", 40, 27), ("60x", 60, 40), ("x20", 30, 20)]
        for (label, width, height) in expected {
            let picture = try Self.decoded(folder, "scene.\(label).png")
            #expect((picture.width, picture.height) == (width, height), "\(label)")
        }
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let outputs = try #require(report["outputs"] as? [[String: Any]])
        #expect(outputs.map { $0["size"] as? String } == expected.map(\.0))
        #expect(outputs.map { $0["width"] as? Int } == expected.map(\.1))
        #expect(report["kind"] as? String == "picture")
    }

    /// A size never enlarges unless asked; --width does, as it always has.
    @Test func aSizeDoesNotEnlargeUnlessAsked() throws {
        let input = Fixture.path("pictures/orientation1.png")
        for (options, width, height) in [(["--size", "500"], 61, 41), (["--size", "122", "--enlarge"], 122, 82), (["--width", "122"], 122, 82)] {
            let (run, folder) = try Self.run([input, "-o", "out.png"] + options)
            defer { try? FileManager.default.removeItem(at: folder) }
            #expect(run.status == 0)
            let picture = try Self.decoded(folder, "out.png")
            #expect((picture.width, picture.height) == (width, height), "\(options)")
        }
    }

    /// --fill is the fitted picture that covers the box, cut around the gravity.
    @Test func fillIsTheCoveringReductionCutAtItsCentre() throws {
        let input = Fixture.path("thumbnails/scene.png")
        let (run, folder) = try Self.run([input, "--size", "40x40", "--fill", "-o", "scene.40.png"])
        let (covering, coveringFolder) = try Self.run([input, "--size", "x40", "-o", "scene.x40.png"])
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: coveringFolder)
        }
        #expect(run.status == 0 && covering.status == 0)
        let filled = try Self.decoded(folder, "scene.40.png")
        let whole = try Self.decoded(coveringFolder, "scene.x40.png")
        #expect((filled.width, filled.height, whole.width, whole.height) == (40, 40, 60, 40))
        let centre = RepositoryFixtures.rect(of: whole.bytes, pictureWidth: 60, bytesPerPixel: 3, x: 10, y: 0, width: 40, height: 40)
        #expect(filled.bytes == centre)
    }

    /// The attention crop keeps the side with the detail, the colour and the skin tone.
    @Test func attentionKeepsTheBusySide() throws {
        let (run, folder) = try Self.run([Fixture.path("thumbnails/attention.png"), "--size", "40", "--fill", "--gravity", "attention", "-o", "a.png"])
        let (plain, plainFolder) = try Self.run([Fixture.path("thumbnails/attention.png"), "-o", "p.png"])
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: plainFolder)
        }
        #expect(run.status == 0 && plain.status == 0)
        let kept = try Self.decoded(folder, "a.png"), whole = try Self.decoded(plainFolder, "p.png")
        #expect((kept.width, kept.height) == (40, 40))
        // The stripes and the face are at columns 84 to 117; columns 78 to 83 are flat, so any of
        // the windows from 78 to 80 keeps all of them.
        let windows = (0...80).filter { x in
            kept.bytes == RepositoryFixtures.rect(of: whole.bytes, pictureWidth: 120, bytesPerPixel: 3, x: x, y: 0, width: 40, height: 40)
        }
        #expect(windows.count == 1 && (78...80).contains(windows[0]), "\(windows)")
    }

    /// Alpha is kept, and transparent pixels lend no colour to their opaque neighbours, whether the
    /// filter reduces alone (by 2) or boxes are averaged first (by 4 and by 16).
    @Test(arguments: [128, 64, 16])
    func transparentPixelsDoNotBleed(size: Int) throws {
        let (run, folder) = try Self.run([Fixture.path("thumbnails/blue-beside-transparent-red.png"), "--size", "\(size)", "-o", "out.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        let picture = try Self.decoded(folder, "out.png")
        #expect((picture.width, picture.height, picture.channels) == (size, size / 2, 4))
        var red = 0, faintBlue = 0
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let pixel = picture.pixel(x: x, y: y)
                if pixel[0] != 0 { red += 1 }
                if x < size / 2 - 1 && pixel[3] < 250 { faintBlue += 1 }
            }
        }
        #expect(red == 0 && faintBlue == 0, "\(red) pixels with red, \(faintBlue) blue ones not opaque")
    }

    /// --skip-existing makes the sizes that are missing, and leaves the others as they are.
    @Test func skipExistingMakesOnlyTheMissingSizes() throws {
        let input = Fixture.path("thumbnails/scene.png")
        let (first, folder) = try Self.run([input, "--sizes", "100,40", "--out-dir", "."])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(first.status == 0)
        let kept = folder.appendingPathComponent("scene.100.png").path, removed = folder.appendingPathComponent("scene.40.png").path
        let identity = try #require(FileManager.default.attributesOfItem(atPath: kept)[.systemFileNumber] as? Int)
        try FileManager.default.removeItem(atPath: removed)
        let second = try ToolRun.run(["thumbnail", input, "--sizes", "100,40", "--out-dir", ".", "--skip-existing"], in: folder)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(FileManager.default.fileExists(atPath: removed))
        #expect(try FileManager.default.attributesOfItem(atPath: kept)[.systemFileNumber] as? Int == identity)
        #expect(try Self.decoded(folder, "scene.40.png").width == 40)
        let third = try ToolRun.run(["thumbnail", input, "--sizes", "100,40", "--out-dir", ".", "--skip-existing"], in: folder)
        #expect(third.status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: kept)[.systemFileNumber] as? Int == identity)
    }

    /// One decoded frame of a video, many sizes.
    @Test func aVideoFrameInManySizes() throws {
        let (run, folder) = try Self.run([Fixture.path("video/counter.mp4"), "--at", "0", "--sizes", "64,32", "--out-dir", "."])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        #expect(try Self.decoded(folder, "counter.64.png").width == 64)
        #expect(try Self.decoded(folder, "counter.32.png").width == 32)
    }

    /// A folder of photos and videos in one run; a video's options are said to be of no use to a picture.
    @Test func aMixedFolderInOneRun() throws {
        let (run, folder) = try Self.run(["--at", "0", "--size", "32", "--sandbox", "on", "--quiet"] + ["pictures/orientation6.jpg", "video/counter.mp4"].map(Fixture.path)
                                         + ["--out-dir", "."])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        #expect(run.errorLines == ["mediatool: warning: \(Fixture.path("pictures/orientation6.jpg")): --at is for videos: a picture has one frame, which was used"])
        #expect(try Self.decoded(folder, "orientation6.32.png").width == 32)
        #expect(try Self.decoded(folder, "counter.32.png").width == 32)
    }

    /// `--at auto` is a poster worth showing, which a photo is: a mixed batch (a server's uploads,
    /// the Active Storage gem's previews) has no warning for each photo (the new user's review).
    @Test func aPosterOfAPhotoIsThePhotoWithoutAWarning() throws {
        let (run, folder) = try Self.run(["--at", "auto", "--size", "32", "--quiet"] + ["pictures/orientation6.jpg", "video/counter.mp4"].map(Fixture.path)
                                         + ["--out-dir", "."])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        #expect(try Self.decoded(folder, "orientation6.32.png").width == 32)
    }

    @Test(arguments: [
        (["--sizes", "10,20", "--name", "{stem}.png"], "--name must hold {size} when several sizes are written, so that each has its own name."),
        (["--sizes", "10,20", "-o", "x.png"], "-o must hold {size} when several sizes are written, so that each has its own name."),
        (["--size", "10", "--width", "10"], "Give sizes by --size (or --sizes), or one by --width/--height, not both."),
        (["--size", "10x", "--fill"], "--fill needs every size as a box: --size N or --size WxH."),
        (["--gravity", "attention"], "--gravity says where --fill cuts: give --fill too."),
        (["--sizes", "10,0"], "--sizes takes sizes separated by commas (150,300x300,1024), not '0'."),
        (["--size", "x"], "The value 'x' is invalid for '--size <size>'"),
    ])
    func sizeMistakesAreUsageErrors(options: [String], message: String) throws {
        let run = try ToolRun.run(["thumbnail", Fixture.path("thumbnails/scene.png")] + options)
        #expect(run.status == 64)
        #expect(run.errorLines.first?.hasPrefix("mediatool: \(message)") == true, "\(run.standardError)")
    }

    /// Broken pictures: one line each, nothing written, the others made.
    @Test func badPicturesFailAloneWithNothingWritten() throws {
        let bad = ["corrupt-idat.png", "truncated.jpg", "bomb.png", "bad-crc.png"].map { Fixture.path("pictures/\($0)") }
        let (run, folder) = try Self.run(bad + [Fixture.path("thumbnails/scene.png"), "--sizes", "40,20", "--out-dir", ".", "--quiet"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 1)
        #expect(run.errorLines.count == bad.count, "\(run.standardError)")
        for path in bad { #expect(run.errorLines.filter { $0.hasPrefix("mediatool: \(path): ") }.count == 1, "\(path)") }
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(written == ["scene.20.png", "scene.40.png"])
    }

    /// HDR photos (10-bit AVIF, BT.2020 with HLG or PQ in their nclx box), made from photo-sdr.png
    /// with reference white at 203 cd/m²: tone mapped as video frames are, they are that picture again.
    @Test(arguments: ["hlg", "pq"])
    func hdrPhotosComeBackAsTheSDRPicture(transfer: String) throws {
        let (run, folder) = try Self.run([Fixture.path("hdr/photo-\(transfer).avif"), "-o", "out.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        let picture = try Self.decoded(folder, "out.png"), sdr = try DecodedPNG(path: Fixture.path("hdr/photo-sdr.png"))
        #expect((picture.width, picture.height, picture.channels) == (sdr.width, sdr.height, 3))
        let psnr = Self.psnr(picture.bytes, sdr.bytes)
        #expect(psnr >= 35, "\(psnr) dB")
    }

    /// --hdr keep writes the HDR signal as 16-bit PNG, with its code points in a cICP chunk.
    @Test func hdrPhotosKeptAreSixteenBitWithCICP() throws {
        let (run, folder) = try Self.run([Fixture.path("hdr/photo-hlg.avif"), "--hdr", "keep", "-o", "out.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("out.png")))
        #expect(bytes[24] == 16)
        let cicp = try #require(bytes.indices.dropLast(8).first { bytes[$0..<($0 + 4)].elementsEqual("cICP".utf8) })
        #expect(Array(bytes[(cicp + 4)..<(cicp + 8)]) == [9, 18, 0, 1])
    }

    /// --colorspace srgb converts through the profile exactly as lcms2 does for Pillow (a reference
    /// made by scripts/fixtures/thumbnails.py); by default the profile goes along with the pixels.
    @Test func displayP3ConvertedToSRGBOrCarried() throws {
        let input = Fixture.path("thumbnails/scene-p3.png")
        let (converted, folder) = try Self.run([input, "--colorspace", "srgb", "-o", "srgb.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(converted.status == 0 && converted.errorLines == [], "\(converted.standardError)")
        let picture = try Self.decoded(folder, "srgb.png")
        let reference = [UInt8](try Fixture.data("thumbnails/scene-p3-in-srgb.rgb"))
        let worst = zip(picture.bytes, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(picture.bytes.count == reference.count && worst <= 1, "\(worst)")
        let kept = try ToolRun.run(["thumbnail", input, "-o", "kept.png"], in: folder)
        #expect(kept.status == 0)
        let carried = try RealWorldCropTests.profile(ofPNG: folder.appendingPathComponent("kept.png").path)
        let original = try RealWorldCropTests.profile(ofPNG: input)
        #expect(carried != nil && carried == original)
        let keptPixels = try Self.decoded(folder, "kept.png").bytes, scene = try DecodedPNG(path: Fixture.path("thumbnails/scene.png")).bytes
        #expect(keptPixels == scene)
    }

    /// A profile lcms2 cannot use costs the conversion, said in one warning, not the thumbnail.
    @Test func anUnusableProfileIsKeptWithAWarning() throws {
        let (run, folder) = try Self.run([Fixture.path("pictures/icc.jpg"), "--colorspace", "srgb", "-o", "out.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0)
        #expect(run.errorLines == ["mediatool: warning: \(Fixture.path("pictures/icc.jpg")): its ICC profile cannot be used for a colour conversion (lcms2 refused it): the profile was kept, the colours not converted (--colorspace srgb)"])
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
    }

    /// A size the memory cannot hold is refused before anything is allocated, for a picture and a
    /// video (one size of a video: the frame converted at it, which the converter's limits refuse).
    @Test(arguments: [
        ("pictures/orientation6.jpg", "the sizes asked (the largest 200000x134426) need 205151 MiB of memory, over the limit of 1024 MiB (--max-memory)"),
        ("video/counter.mp4", "200000x25000 is 5000000000 pixels, over the limit of 268000000 (--max-pixels)"),
    ])
    func sizesPastTheMemoryAreRefused(fixture: String, message: String) throws {
        let (run, folder) = try Self.run([Fixture.path(fixture), "--size", "200000", "--enlarge", "--at", "0", "-o", "out.png", "--quiet"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 1)
        #expect(run.errorLines.last == "mediatool: \(Fixture.path(fixture)): \(message)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.png").path))
    }

    /// A folder run again with other sizes passes over what the earlier runs wrote beside the
    /// photos (any size, or .thumb), instead of making thumbnails of thumbnails.
    @Test func earlierSizesAreNotTakenForPhotos() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let uploads = folder.appendingPathComponent("up")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixture.path("pictures/orientation6.jpg"), toPath: uploads.appendingPathComponent("p.jpg").path)
        for sizes in [["--sizes", "20,30"], ["--sizes", "20,40", "--skip-existing"], ["--width", "20"]] {
            let run = try ToolRun.run(["thumbnail", "up", "--quiet"] + sizes, in: folder)
            #expect(run.status == 0, "\(sizes): \(run.standardError)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: uploads.path).sorted()
        #expect(names == ["p.20.png", "p.30.png", "p.40.png", "p.jpg", "p.thumb.png"])
    }

    /// --skip-existing reports the output it made, not the one that was there.
    @Test func skipExistingReportsWhatItMade() throws {
        let input = Fixture.path("thumbnails/scene.png")
        let (first, folder) = try Self.run([input, "--sizes", "100,40", "--out-dir", "."])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(first.status == 0)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("scene.40.png"))
        let second = try ToolRun.run(["thumbnail", input, "--sizes", "100,40", "--out-dir", ".", "--skip-existing", "--json"], in: folder)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(second.output.utf8)) as? [String: Any])
        #expect(report["output"] as? String == "./scene.40.png")
        #expect((report["outputs"] as? [[String: Any]])?.map { $0["path"] as? String } == ["./scene.40.png"])
    }

    /// Pictures are written in the depth asked, as frames are: 8 bits by default, 16 with --depth 16.
    @Test(arguments: [("pictures/gray16.png", [String](), 8), ("pictures/orientation1.png", ["--depth", "16"], 16)])
    func theDepthAskedIsWritten(fixture: String, options: [String], depth: Int) throws {
        let (run, folder) = try Self.run([Fixture.path(fixture), "-o", "out.png"] + options)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("out.png")))
        #expect(Int(bytes[24]) == depth)
    }

    /// An animated WebP gives its first frame, or with --at the frame shown at that time.
    @Test func anAnimationsFrameIsChosenByAt() throws {
        let input = Fixture.path("webp/animated.webp")
        let (first, folder) = try Self.run([input, "-o", "first.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let second = try ToolRun.run(["thumbnail", input, "--at", "0.15", "-o", "second.png"], in: folder)
        let share = try ToolRun.run(["thumbnail", input, "--at", "60%", "-o", "share.png"], in: folder)
        let past = try ToolRun.run(["thumbnail", input, "--at", "9", "-o", "past.png"], in: folder)
        #expect(second.status == 0 && share.status == 0 && past.status == 0)
        #expect(first.errorLines == ["mediatool: warning: \(input): animated WebP: its first frame was read"])
        #expect(second.errorLines == ["mediatool: warning: \(input): animated WebP: frame 2 of 2, shown from 0.1 s, was read"])
        #expect(past.errorLines == ["mediatool: warning: \(input): animated WebP: 9 s is past its end (0.2 s): its last frame, 2, was read"])
        let pictures = try ["first", "second", "share", "past"].map { try Self.decoded(folder, "\($0).png").bytes }
        #expect(pictures[0] != pictures[1] && pictures[1] == pictures[2] && pictures[1] == pictures[3])
    }

    /// A reduced page that is no level of a pyramid (a scanner's quarter-size preview, plain red in
    /// the fixture) is passed over, as vips does: every size comes from the page itself.
    @Test(arguments: [15, 50, 100])
    func aPreviewPageIsNoPyramidLevel(size: Int) throws {
        let (run, folder) = try Self.run([Fixture.path("thumbnails/preview-page.tif"), "--size", "\(size)", "-o", "out.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        let picture = try Self.decoded(folder, "out.png")
        let samples = (0..<picture.height).flatMap { y in (0..<picture.width).map { picture.pixel(x: $0, y: y) } }
        #expect(picture.width == size && Set(samples.map { $0 }).count > 4, "a plain picture: the preview page was read")
    }

    /// A reduced page of another colour model than the page (a CMYK level under RGB) is no level of
    /// it: a rendition the level's size failed ("TIFF in CMYK is not supported") where the page reads.
    @Test func aLevelOfAnotherColourModelIsNoPyramidLevel() throws {
        let (run, folder) = try Self.run([Fixture.path("thumbnails/cmyk-level.tif"), "--size", "100", "-o", "out.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        #expect(try Self.decoded(folder, "out.png").width == 100)
    }

    /// A pyramid TIFF gives each size from its smallest reduced page at least that large (the
    /// fixture's reduced pages are plain red and blue), the largest from the picture itself.
    @Test(arguments: [(50, [40, 40, 200]), (100, [200, 40, 40])])
    func aPyramidsReducedPageIsRead(size: Int, colour: [UInt8]) throws {
        let (run, folder) = try Self.run([Fixture.path("thumbnails/pyramid.tif"), "--size", "\(size)", "-o", "out.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        let picture = try Self.decoded(folder, "out.png")
        #expect(picture.width == size && picture.pixel(x: size / 2, y: picture.height / 2) == colour)
        let whole = try ToolRun.run(["thumbnail", Fixture.path("thumbnails/pyramid.tif"), "--size", "150", "-o", "whole.png"], in: folder)
        #expect(whole.status == 0)
        #expect(try Self.decoded(folder, "whole.png").pixel(x: 75, y: 50) != [200, 40, 40])
    }
}
