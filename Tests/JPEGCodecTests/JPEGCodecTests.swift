import FileIO
import Foundation
import JPEGCodec
import Testing
import TestSupport

let djpeg = "/usr/bin/djpeg"
let jpegtran = "/usr/bin/jpegtran"
let exiftool = "/usr/bin/exiftool"

/// djpeg's decoding of a file (its defaults are libjpeg's: islow DCT, fancy upsampling).
func djpegDecoding(_ path: String) throws -> NetpbmPicture {
    let run = try ChildProcess.run(djpeg, ["-pnm", path])
    try #require(run.status == 0, "djpeg \(path): \(String(decoding: run.standardError, as: UTF8.self))")
    return try NetpbmPicture(run.standardOutput)
}

/// `JPEGDecoder`: regions decoded as libjpeg-turbo's djpeg decodes the whole picture.
@Suite struct JPEGDecoderTests {
    static let regions: [(x: Int, y: Int, width: Int, height: Int)] = [
        (0, 0, .max, .max), (1, 3, 17, 9), (13, 21, 50, 30), (8, 16, 16, 16), (5, 0, 1, 1),
        (.max, .max, 7, 5),  // the bottom right corner
    ]

    @Test(.enabled(if: try Requirement.tool(djpeg)),
          arguments: ["noise420.jpg", "noise422.jpg", "noise444.jpg", "progressive6.jpg", "gray.jpg", "camera.jpg"])
    func regionsAreDjpegs(name: String) throws {
        let path = RepositoryFixtures.path("pictures/\(name)")
        let reference = try djpegDecoding(path)
        for region in Self.regions {
            let x = region.x == .max ? reference.width - region.width : region.x
            let y = region.y == .max ? reference.height - region.height : region.y
            let width = min(region.width, reference.width - x), height = min(region.height, reference.height - y)
            let decoder = try JPEGDecoder(file: InputFile(path: path))
            #expect(decoder.width == reference.width && decoder.height == reference.height)
            #expect(decoder.channels == reference.channels)
            let pixels = try decoder.readRegion(x: x, y: y, columns: width, rows: height)
            #expect(pixels == reference.rect(x: x, y: y, width: width, height: height), "\(name) at \(x),\(y) \(width)x\(height)")
        }
    }

    @Test func headerFacts() throws {
        let noise420 = try JPEGDecoder(file: InputFile(path: RepositoryFixtures.path("pictures/noise420.jpg")))
        #expect(noise420.subsampling == .s420 && noise420.mcuWidth == 16 && noise420.mcuHeight == 16)
        #expect(noise420.components == 3 && !noise420.isCMYK && !noise420.keepsWholeImage)
        let noise422 = try JPEGDecoder(file: InputFile(path: RepositoryFixtures.path("pictures/noise422.jpg")))
        #expect(noise422.subsampling == .s422 && noise422.mcuWidth == 16 && noise422.mcuHeight == 8)
        let noise444 = try JPEGDecoder(file: InputFile(path: RepositoryFixtures.path("pictures/noise444.jpg")))
        #expect(noise444.subsampling == .s444 && noise444.mcuWidth == 8 && noise444.mcuHeight == 8)
        let gray = try JPEGDecoder(file: InputFile(path: RepositoryFixtures.path("pictures/gray.jpg")))
        #expect(gray.components == 1 && gray.channels == 1 && gray.subsampling == nil)
        let progressive = try JPEGDecoder(file: InputFile(path: RepositoryFixtures.path("pictures/progressive6.jpg")))
        #expect(progressive.keepsWholeImage)
    }

    @Test func cmykIsRefusedByName() throws {
        let cmyk = try JPEGDecoder(file: InputFile(path: RepositoryFixtures.path("pictures/cmyk.jpg")))
        #expect(cmyk.isCMYK && cmyk.components == 4)
        #expect(throws: JPEGError.cmykUnsupported) { try cmyk.readRegion(x: 0, y: 0, columns: 1, rows: 1) }
        #expect(JPEGError.cmykUnsupported.description == "CMYK JPEG is not supported (convert it to RGB first)")
    }

    /// The APP1 EXIF and XMP and APP2 ICC segments, as ExifTool and djpeg read them.
    @Test(.enabled(if: try Requirement.tool(exiftool) && Requirement.tool(djpeg)))
    func metadataSegmentsAreExifToolsAndDjpegs() throws {
        let camera = RepositoryFixtures.path("pictures/camera.jpg")
        let exif = try ChildProcess.run(exiftool, ["-b", "-EXIF", camera]).standardOutput
        #expect(try JPEGDecoder(file: InputFile(path: camera)).exif == [UInt8](exif))
        #expect(!exif.isEmpty)

        let xmpICC = RepositoryFixtures.path("pictures/xmp-icc.jpg")
        let xmp = try ChildProcess.run(exiftool, ["-b", "-XMP", xmpICC]).standardOutput
        let decoder = try JPEGDecoder(file: InputFile(path: xmpICC))
        #expect(decoder.xmp == [UInt8](xmp) && !xmp.isEmpty)

        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["icc.jpg", "xmp-icc.jpg", "hp-srgb.jpg"] {
            let path = RepositoryFixtures.path("pictures/\(name)")
            let profile = folder.appendingPathComponent("\(name).icc").path
            #expect(try ChildProcess.run(djpeg, ["-icc", profile, "-outfile", "/dev/null", path]).status == 0)
            let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: profile)))
            #expect(try JPEGDecoder(file: InputFile(path: path)).iccProfile == expected, "\(name)")
        }
        #expect(try JPEGDecoder(file: InputFile(path: RepositoryFixtures.path("pictures/noise420.jpg"))).iccProfile == nil)
    }
}

/// `JPEGEncoder` and `JPEGSegments`: files every JPEG reader takes, with the segments asked for.
@Suite struct JPEGEncoderTests {
    static func gradient(width: Int, height: Int, components: Int) -> [UInt8] {
        (0..<(width * height * components)).map { index in
            let pixel = index / components, channel = index % components
            let x = pixel % width, y = pixel / width
            // Smooth in every channel, as photographs mostly are: what chroma subsampling keeps.
            return UInt8(x * 3 + y * 4 + channel * 10)
        }
    }

    static func encode(_ encoder: JPEGEncoder, width: Int, height: Int, components: Int, pixels: [UInt8],
                       segments: [UInt8] = [], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        try pixels.withUnsafeBytes {
            try encoder.write(width: width, height: height, components: components, pixels: $0, segments: segments, to: fd)
        }
    }

    /// The markers in order up to the start of scan.
    static func markers(_ file: [UInt8]) -> [UInt8] {
        var found: [UInt8] = []
        var at = 2
        while at + 4 <= file.count, file[at] == 0xFF {
            found.append(file[at + 1])
            if file[at + 1] == 0xDA { break }
            at += 2 + (Int(file[at + 2]) << 8 | Int(file[at + 3]))
        }
        return found
    }

    @Test(.enabled(if: try Requirement.tool(djpeg)), arguments: ChromaSubsampling.allCases, [false, true])
    func roundTrip(subsampling: ChromaSubsampling, progressive: Bool) throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.jpg").path
        let (width, height) = (37, 23)
        let pixels = Self.gradient(width: width, height: height, components: 3)
        try Self.encode(JPEGEncoder(quality: 95, subsampling: subsampling, progressive: progressive),
                        width: width, height: height, components: 3, pixels: pixels, to: path)
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(file.starts(with: [0xFF, 0xD8]) && file.suffix(2) == [0xFF, 0xD9])
        let markers = Self.markers(file)
        #expect(markers.first == 0xE0, "JFIF APP0 first")
        #expect(Array(file[6..<11]) == Array("JFIF\0".utf8))
        #expect(markers.contains(progressive ? 0xC2 : 0xC0) && !markers.contains(progressive ? 0xC0 : 0xC2))
        let decoder = try JPEGDecoder(file: InputFile(path: path))
        #expect(decoder.width == width && decoder.height == height && decoder.subsampling == subsampling)
        let reference = try djpegDecoding(path)
        #expect(reference.width == width && reference.height == height && reference.channels == 3)
        let error = zip(reference.bytes, pixels).map { abs(Int($0) - Int($1)) }.reduce(0, +)
        #expect(Double(error) / Double(pixels.count) < 3, "mean error at quality 95")
    }

    @Test(.enabled(if: try Requirement.tool(djpeg)))
    func grayRoundTrip() throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("gray.jpg").path
        let pixels = Self.gradient(width: 20, height: 9, components: 1)
        try Self.encode(JPEGEncoder(quality: 100), width: 20, height: 9, components: 1, pixels: pixels, to: path)
        let reference = try djpegDecoding(path)
        #expect(reference.channels == 1 && reference.width == 20 && reference.height == 9)
        #expect(zip(reference.bytes, pixels).allSatisfy { abs(Int($0) - Int($1)) <= 2 })
    }

    @Test func tooLargeIsRefused() throws {
        let pixel: [UInt8] = [0]
        #expect(throws: JPEGError.library(message: "JPEG holds at most 65500x65500 pixels, not 0x1")) {
            try pixel.withUnsafeBytes { try JPEGEncoder().write(width: 0, height: 1, components: 1, pixels: UnsafeRawBufferPointer(rebasing: $0[0..<0]), to: -1) }
        }
    }

    /// Segments by the JPEG and EXIF specifications: FF E1, a big-endian length counting itself,
    /// "Exif\0\0" and the TIFF block; XMP's namespace header; ICC_PROFILE with its sequence number
    /// and count.
    @Test func segmentBytes() {
        let exif: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A]
        let (bytes, leftOut) = JPEGSegments.metadata(exif: exif, xmp: Array("<x/>".utf8), iccProfile: [1, 2, 3])
        #expect(leftOut.isEmpty)
        var expected: [UInt8] = [0xFF, 0xE1, 0x00, 0x0C] + Array("Exif\0\0".utf8) + exif
        expected += [0xFF, 0xE1, 0x00, 0x23] + Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array("<x/>".utf8)
        expected += [0xFF, 0xE2, 0x00, 0x13] + Array("ICC_PROFILE\0".utf8) + [1, 1] + [1, 2, 3]
        #expect(bytes == expected)
        #expect(JPEGSegments.metadata(exif: [], xmp: nil, iccProfile: []).bytes.isEmpty)
    }

    /// 65535 bytes is the most a segment holds, its length field included.
    @Test func exifThatDoesNotFitIsLeftOutWithALine() {
        let fits = JPEGSegments.metadata(exif: [UInt8](repeating: 7, count: 65527), xmp: nil, iccProfile: nil)
        #expect(fits.leftOut.isEmpty && fits.bytes.count == 65537 && fits.bytes[2...3] == [0xFF, 0xFF])
        let over = JPEGSegments.metadata(exif: [UInt8](repeating: 7, count: 65528), xmp: nil, iccProfile: nil)
        #expect(over.bytes.isEmpty)
        #expect(over.leftOut == ["EXIF left out: 65528 bytes do not fit a JPEG segment"])
    }

    @Test func iccProfileOverMoreSegmentsThanJPEGAllowsIsLeftOut() {
        let count = 255 * 65519 + 1
        let result = JPEGSegments.metadata(exif: nil, xmp: nil, iccProfile: [UInt8](repeating: 1, count: count))
        #expect(result.bytes.isEmpty)
        #expect(result.leftOut == ["ICC profile left out: \(count) bytes need more than 255 JPEG segments"])
    }

    /// A profile over several APP2 segments, EXIF and XMP, written into a file by the encoder:
    /// djpeg and ExifTool read back what was put in.
    @Test(.enabled(if: try Requirement.tool(djpeg) && Requirement.tool(exiftool)))
    func segmentsInAnEncodedFileReadBack() throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("meta.jpg").path
        let profile = try RepositoryFixtures.bytes("pictures/hp-srgb.icc")
        // Several segments' worth: the real profile, padded as a large one would be (ICC readers take the bytes).
        let large = profile + [UInt8](repeating: 0x5A, count: 150_000)
        let exif = [UInt8](try ChildProcess.run(exiftool, ["-b", "-EXIF", RepositoryFixtures.path("pictures/camera.jpg")]).standardOutput)
        let xmp = Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"></x:xmpmeta>".utf8)
        let segments = JPEGSegments.metadata(exif: exif, xmp: xmp, iccProfile: large)
        #expect(segments.leftOut.isEmpty)
        try Self.encode(JPEGEncoder(), width: 8, height: 8, components: 3, pixels: Self.gradient(width: 8, height: 8, components: 3),
                        segments: segments.bytes, to: path)
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Self.markers(file).prefix(6) == [0xE0, 0xE1, 0xE1, 0xE2, 0xE2, 0xE2])
        let extracted = folder.appendingPathComponent("out.icc").path
        #expect(try ChildProcess.run(djpeg, ["-icc", extracted, "-outfile", "/dev/null", path]).status == 0)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: extracted))) == large)
        #expect([UInt8](try ChildProcess.run(exiftool, ["-b", "-EXIF", path]).standardOutput) == exif)
        #expect([UInt8](try ChildProcess.run(exiftool, ["-b", "-XMP", path]).standardOutput) == xmp)
        let decoder = try JPEGDecoder(file: InputFile(path: path))
        #expect(decoder.iccProfile == large && decoder.exif == exif && decoder.xmp == xmp)
    }

    @Test func insertingGoesAfterJFIF() {
        let jfif: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0xAA, 0xBB, 0xFF, 0xDB]
        #expect(JPEGSegments.inserting([1, 2], into: jfif) == [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0xAA, 0xBB, 1, 2, 0xFF, 0xDB])
        let bare: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 0x00]
        #expect(JPEGSegments.inserting([1, 2], into: bare) == [0xFF, 0xD8, 1, 2, 0xFF, 0xDB, 0x00])
        #expect(JPEGSegments.inserting([1, 2], into: [0x89, 0x50, 0x4E, 0x47]) == [0x89, 0x50, 0x4E, 0x47])
    }
}

/// `JPEGLosslessTransform`: jpegtran's transforms (-trim, -crop, -copy none), through TurboJPEG.
@Suite struct JPEGLosslessTransformTests {
    static let cases: [(JPEGLosslessTransform.Operation, [String])] = [
        (.none, []), (.mirrorHorizontal, ["-flip", "horizontal"]), (.mirrorVertical, ["-flip", "vertical"]),
        (.transpose, ["-transpose"]), (.transverse, ["-transverse"]), (.rotate90, ["-rotate", "90"]),
        (.rotate180, ["-rotate", "180"]), (.rotate270, ["-rotate", "270"]),
    ]

    @Test(.enabled(if: try Requirement.tool(jpegtran) && Requirement.tool(djpeg)),
          arguments: ["o1-420-partial.jpg", "o1-444.jpg", "restart.jpg"], [false, true])
    func sameAsJpegtran(name: String, progressive: Bool) throws {
        let path = RepositoryFixtures.path("lossless/\(name)")
        let source = try RepositoryFixtures.bytes("lossless/\(name)")
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (operation, options) in Self.cases {
            let ours = try source.withUnsafeBytes {
                try JPEGLosslessTransform.apply(operation, to: $0, x: 16, y: 16, width: 16, height: 16, progressive: progressive)
            }
            let run = try ChildProcess.run(jpegtran, ["-copy", "none", "-trim"] + options + ["-crop", "16x16+16+16"]
                                           + (progressive ? ["-progressive"] : []) + [path])
            #expect(run.status == 0)
            let oursPath = folder.appendingPathComponent("ours.jpg").path
            try Data(ours).write(to: URL(fileURLWithPath: oursPath))
            let theirsPath = folder.appendingPathComponent("theirs.jpg").path
            try run.standardOutput.write(to: URL(fileURLWithPath: theirsPath))
            let (mine, theirs) = (try djpegDecoding(oursPath), try djpegDecoding(theirsPath))
            #expect(mine.width == theirs.width && mine.height == theirs.height, "\(name) \(operation)")
            #expect(mine.bytes == theirs.bytes, "\(name) \(operation)")
            #expect(!JPEGEncoderTests.markers(ours).contains { (0xE1...0xEF).contains($0) || $0 == 0xFE }, "no marker copied")
            #expect(JPEGEncoderTests.markers(ours).contains(progressive ? 0xC2 : 0xC0))
        }
    }

    @Test func operationAxes() {
        typealias Operation = JPEGLosslessTransform.Operation
        let transposing: [Operation] = [.transpose, .transverse, .rotate90, .rotate270]
        for (operation, _) in Self.cases {
            #expect(operation.transposes == transposing.contains(operation))
        }
    }

    @Test func corruptDataIsAnError() throws {
        let source = try RepositoryFixtures.bytes("lossless/restart-corrupt.jpg")
        #expect(throws: JPEGError.self) {
            try source.withUnsafeBytes {
                try JPEGLosslessTransform.apply(.none, to: $0, x: 0, y: 0, width: 16, height: 16, progressive: false)
            }
        }
    }
}
