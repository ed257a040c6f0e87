import Foundation
import JPEGCodec
import FileIO
import Testing
import TestSupport

/// One output format for every output, decided once from --format, the
/// extension of -o or --name, or the default; the bytes always match the name.
@Suite struct OutputFormatTests {
    static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47]

    static func signature(_ path: String) -> [UInt8] {
        Array((FileManager.default.contents(atPath: path) ?? Data()).prefix(4))
    }

    @Test(arguments: [
        (["crop", "--rect", "0,0,20,20", "pictures/orientation6.jpg"], "out.jpg", jpegSignature),
        (["crop", "--rect", "0,0,20,20", "pictures/orientation6.jpg"], "out.png", pngSignature),
        (["crop", "--rect", "0,0,20,20", "--format", "jpeg", "pictures/orientation6.jpg"], "out", jpegSignature),
        (["thumbnail", "--at", "0.5", "video/counter.mp4"], "out.JPEG", jpegSignature),
        (["thumbnail", "--at", "0.5", "video/counter.mp4"], "out.png", pngSignature),
        (["thumbnail", "--at", "0.5", "--format", "png", "video/counter.mp4"], "out", pngSignature),
    ])
    func theBytesMatchTheName(arguments: [String], output: String, signature: [UInt8]) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(output).path
        let run = try ToolRun.run(arguments.dropLast() + [Fixture.path(arguments.last!), "-o", path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(Self.signature(path).starts(with: signature))
    }

    static let formats: [(name: String, fileExtension: String, signature: [UInt8])] = [
        ("png", "png", pngSignature), ("jpeg", "jpg", jpegSignature), ("webp", "webp", Array("RIFF".utf8)),
    ]
    static let jobs: [(arguments: [String], input: String, suffix: String)] = [
        (["crop", "--rect", "0,0,20,20"], "pictures/orientation6.jpg", "crop"),
        (["thumbnail", "--at", "0.5"], "video/counter.mp4", "thumb"),
    ]

    /// Every way of naming a format (-o's extension, --name's, --format with -o or with the
    /// default name) for every format and both picture-writing subcommands: the bytes say the format.
    @Test(arguments: 0..<2, 0..<3)
    func everyWayOfNamingAFormatGivesThatFormat(job jobIndex: Int, format formatIndex: Int) throws {
        let job = Self.jobs[jobIndex], format = Self.formats[formatIndex]
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = Fixture.path(job.input)
        let stem = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        let ways: [(options: [String], made: String)] = [
            (["-o", folder.appendingPathComponent("by-o.\(format.fileExtension)").path], "by-o.\(format.fileExtension)"),
            (["--out-dir", folder.path, "--name", "{stem}-by-name.\(format.fileExtension)"], "\(stem)-by-name.\(format.fileExtension)"),
            (["--format", format.name, "-o", folder.appendingPathComponent("by-format").path], "by-format"),
            (["--format", format.name, "--out-dir", folder.path], "\(stem).\(job.suffix).\(format.fileExtension)"),
        ]
        for way in ways {
            let run = try ToolRun.run(job.arguments + way.options + [input])
            #expect(run.status == 0, "\(way.options): \(run.standardError)")
            #expect(Self.signature(folder.appendingPathComponent(way.made).path).starts(with: format.signature), "\(way.options)")
        }
    }

    @Test func theNameTemplateDecidesForAWholeFolder() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["crop", "--rect", "0,0,5,5", "--out-dir", folder.path, "--name", "{stem}.jpeg",
                                   Fixture.path("pictures/rgb8.png"), Fixture.path("pictures/gray8.png")])
        #expect(run.status == 0, "\(run.standardError)")
        for name in ["rgb8.jpeg", "gray8.jpeg"] {
            #expect(Self.signature(folder.appendingPathComponent(name).path).starts(with: Self.jpegSignature))
        }
        let defaults = try ToolRun.run(["thumbnail", "--at", "0", "--format", "jpeg", "--out-dir", folder.path, Fixture.path("video/counter.mp4")])
        #expect(defaults.status == 0)
        #expect(Self.signature(folder.appendingPathComponent("counter.thumb.jpg").path).starts(with: Self.jpegSignature))
    }

    @Test(arguments: [
        (["thumbnail", "video/counter.mp4", "-o", "x.gif"], "'.gif' is not a format mediatool writes"),
        (["crop", "--rect", "0,0,2,2", "pictures/rgb8.png", "-o", "x.bmp"], "'.bmp' is not a format mediatool writes"),
        (["thumbnail", "--format", "jpeg", "video/counter.mp4", "-o", "x.png"], "--format jpeg disagrees with 'x.png'"),
        (["crop", "--rect", "0,0,2,2", "--name", "{foo}.png", "pictures/rgb8.png"], "not {foo}"),
        (["crop", "--rect", "0,0,2,2", "--name", "{stem}.{ext}", "pictures/rgb8.png"], "must end with the extension"),
        (["crop", "--rect", "0,0,2,2", "--name", "/tmp/x.png", "pictures/rgb8.png"], "no absolute path"),
        (["crop", "--rect", "0,0,2,2", "--json", "pictures/rgb8.png", "-o", "-"], "both write to standard output"),
        (["thumbnail", "--lossless", "video/counter.mp4", "-o", "x.jpg"], "a JPEG made from decoded pixels always loses some"),
        (["crop", "--rect", "0,0,2,2", "--lossless=expand", "pictures/orientation1.jpg", "-o", "x.png"], "--lossless=expand is for JPEG crops"),
        (["crop", "--rect", "0,0,2,2", "--subsampling", "411", "pictures/orientation1.jpg", "-o", "x.jpg"], "411"),
    ])
    func conflictsAreUsageErrorsAndWriteNothing(arguments: [String], message: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let resolved = arguments.map { $0.hasPrefix("pictures/") || $0.hasPrefix("video/") ? Fixture.path($0) : $0 }
        let run = try ToolRun.run(resolved, in: folder)
        #expect(run.status == 64)
        #expect(run.standardError.contains(message), "\(run.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test func dashWritesThePictureToStandardOutput() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try ToolRun.run(["thumbnail", "--at", "0.5", Fixture.path("video/counter.mp4"), "-o", "-"], in: folder)
        #expect(png.status == 0)
        #expect(Array(png.standardOutput.prefix(4)) == Self.pngSignature)
        // --skip-existing does not take standard output for an existing file.
        let skipping = try ToolRun.run(["thumbnail", "--skip-existing", "--at", "0", Fixture.path("video/counter.mp4"), "-o", "-"], in: folder)
        #expect(skipping.status == 0 && Array(skipping.standardOutput.prefix(4)) == Self.pngSignature)
        let named = try ToolRun.run(["crop", "--rect", "0,0,5,5", "--name", "-", Fixture.path("pictures/rgb8.png")], in: folder)
        #expect(named.status == 64)
        let good = try ToolRun.run(["crop", "--rect", "0,0,5,5", "--format", "jpeg", Fixture.path("pictures/rgb8.png"), "-o", "-"], in: folder)
        #expect(good.status == 0)
        #expect(Array(good.standardOutput.prefix(3)) == Self.jpegSignature)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test func alphaIntoJPEGIsFlattenedOnWhiteWithAWarning() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.jpg").path
        let run = try ToolRun.run(["crop", "--rect", "0,0,7,5", "--stored", Fixture.path("pictures/palette-trns.png"), "-o", output])
        #expect(run.status == 0)
        #expect(run.errorLines.count == 1 && run.errorLines[0].contains("JPEG has no alpha: transparent pixels were flattened on white"))
        // The exact compositing is JPEGImageEncoderTests'; here, a JPEG of the picture's size.
        let decoder = try JPEGDecoder(file: InputFile(path: output))
        #expect((decoder.width, decoder.height, decoder.channels) == (7, 5, 3))
    }

    @Test func aJPEGCropKeepsItsProfileAndItsPixels() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.jpg").path
        let run = try ToolRun.run(["crop", "--rect", "3,4,30,20", "--quality", "100", Fixture.path("pictures/hp-srgb.jpg"), "-o", output])
        #expect(run.status == 0 && run.errorLines == [])
        let decoder = try JPEGDecoder(file: InputFile(path: output))
        #expect(decoder.iccProfile == [UInt8](try Fixture.data("pictures/hp-srgb.icc")))
        let crop = try decoder.readRegion(x: 0, y: 0, columns: 30, rows: 20)
        let expected = CropTests.upright.cropped(to: .init(x: 3, y: 4, width: 30, height: 20)).bytes
        #expect(zip(crop, expected).map { abs(Int($0) - Int($1)) }.max()! <= 12)
    }
}

/// Standard input as an input, and folders that hold a run's own outputs.
@Suite struct InputsAndOwnOutputsTests {
    @Test func standardInputIsReadOnceAsAPictureOrAVideo() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let crop = try ToolRun.run(["crop", "--rect", "0,0,5,5", "-", "-o", "-"], input: try Fixture.data("pictures/rgb8.png"))
        #expect(crop.status == 0, "\(crop.standardError)")
        #expect(Array(crop.standardOutput.prefix(4)) == OutputFormatTests.pngSignature)
        let output = folder.appendingPathComponent("t.png").path
        let thumbnail = try ToolRun.run(["thumbnail", "--at", "1", "-", "-o", output], input: try Fixture.data("video/counter.mp4"))
        #expect(thumbnail.status == 0, "\(thumbnail.standardError)")
        #expect(ThumbnailTests.frameNumber(try DecodedPNG(path: output)) == 25)
        let unnamed = try ToolRun.run(["crop", "--rect", "0,0,5,5", "-"], input: try Fixture.data("pictures/rgb8.png"), in: folder)
        #expect(unnamed.status == 64)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["t.png"])
    }

    @Test func aFolderCroppedTwiceGivesTheSameOutputs() throws {
        let folder = try HostileInputTests.folder(with: ["a.png", "b.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try ToolRun.run(["crop", "--rect", "0,0,2,2", "."], in: folder).status == 0)
        let second = try ToolRun.run(["crop", "--overwrite", "--rect", "0,0,2,2", "."], in: folder)
        #expect(second.status == 0)
        #expect(second.errorLines.last?.hasSuffix(", 2 of mediatool's own outputs passed over") == true)
        let named = try ToolRun.run(["crop", "--overwrite", "--name", "{stem}-small.png", "--rect", "0,0,2,2", "."], in: folder)
        #expect(named.status == 0)
        let again = try ToolRun.run(["crop", "--overwrite", "--name", "{stem}-small.png", "--rect", "0,0,2,2", "."], in: folder)
        #expect(again.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            == ["a-small.png", "a.crop.png", "a.png", "b-small.png", "b.crop.png", "b.png"])
    }
}
