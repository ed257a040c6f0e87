import CPNG
import Foundation
import FileIO
import PNGCodec
import Testing
import TestSupport

@Suite struct PNGEncoderTests {
    /// Writes with the encoder, reads back with libpng's own simplified reader.
    static func roundTrip(width: Int, height: Int, layout: PNGPixelLayout, pixels: [UInt8], exif: [UInt8]? = nil,
                          encoder: PNGEncoder = PNGEncoder())
        throws -> (file: Data, decoded: [UInt8], format: UInt32)
    {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("png-\(UUID().uuidString).png").path
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        _ = try pixels.withUnsafeBytes { try encoder.write(width: width, height: height, layout: layout, pixels: $0, exif: exif, to: fd) }
        close(fd)
        let file = try Data(contentsOf: URL(fileURLWithPath: path))

        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        try #require(file.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) } != 0)
        let format = image.format
        var decoded = [UInt8](repeating: 0, count: Int(image.width * image.height) * layout.bytesPerPixel)
        let finished = decoded.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        png_image_free(&image)
        try #require(finished != 0)
        return (file, decoded, format)
    }

    @Test func rgbPixelsComeBackExactly() throws {
        let pixels: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30, 40, 50, 60, 70, 80, 90]
        let result = try Self.roundTrip(width: 3, height: 2, layout: PNGPixelLayout(channels: .rgb), pixels: pixels)
        #expect(result.format == UInt32(PNG_FORMAT_RGB))
        #expect(result.decoded == pixels)
    }

    @Test func rgbaKeepsAlpha() throws {
        let pixels: [UInt8] = [1, 2, 3, 0, 4, 5, 6, 128, 7, 8, 9, 255, 10, 11, 12, 64]
        let result = try Self.roundTrip(width: 2, height: 2, layout: PNGPixelLayout(channels: .rgba), pixels: pixels)
        #expect(result.format == UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA))
        #expect(result.decoded == pixels)
    }

    /// libpng 1.6.39 writes eXIf twice if png_write_end gets the info struct: once, before IDAT.
    @Test func exifIsWrittenOnceBeforeTheImageData() throws {
        let exif: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        let result = try Self.roundTrip(width: 1, height: 1, layout: PNGPixelLayout(channels: .gray), pixels: [7], exif: exif)
        let chunks = Self.chunkTypes(result.file)
        #expect(chunks.filter { $0 == "eXIf" }.count == 1)
        #expect(chunks.firstIndex(of: "eXIf")! < chunks.firstIndex(of: "IDAT")!)
    }

    @Test func aShortPixelBufferIsRefused() {
        #expect(throws: PNGError.pixelCountMismatch(expectedBytes: 12, foundBytes: 11)) {
            try [UInt8](repeating: 0, count: 11).withUnsafeBytes {
                try PNGEncoder().write(width: 2, height: 2, layout: PNGPixelLayout(channels: .rgb), pixels: $0, to: -1)
            }
        }
    }

    @Test(arguments: [0, PNGEncoder.filterUp])
    func aWriteErrorIsReportedNotCrashed(filters: Int32) {
        #expect(throws: PNGError.library(message: "Bad file descriptor")) {
            try [UInt8](repeating: 0, count: 3).withUnsafeBytes {
                try PNGEncoder(filters: filters).write(width: 1, height: 1, layout: PNGPixelLayout(channels: .rgb), pixels: $0, to: -1)
            }
        }
    }

    /// Smooth gradients with noise in some rows: runs, matches and literals, across band edges.
    static func bandedPicture(width: Int, height: Int, bytesPerPixel: Int) -> [UInt8] {
        var random = SplitMix64(seed: 7)
        var pixels = [UInt8](repeating: 0, count: width * height * bytesPerPixel)
        for y in 0..<height {
            let noisy = y % 7 == 3
            for index in 0..<(width * bytesPerPixel) {
                let smooth = UInt8(truncatingIfNeeded: index / bytesPerPixel / 3 + y / 2)
                pixels[y * width * bytesPerPixel + index] = noisy ? UInt8.random(in: 0...255, using: &random) : smooth
            }
        }
        return pixels
    }

    /// Pictures of a megabyte and more are compressed in bands on several threads and joined into
    /// one zlib stream: libpng reads back every pixel, and zlib's checksum of the whole agrees.
    @Test(arguments: [
        (PNGEncoder.filterUp, 1, PNGEncoder.runLengthStrategy), (PNGEncoder.filterNone, 1, PNGEncoder.runLengthStrategy),
        (PNGEncoder.filterUp, 9, 0), (PNGEncoder.filterUp, 0, 0),
    ])
    func bandsJoinIntoOneStream(filters: Int32, level: Int, strategy: Int32) throws {
        let (width, height) = (1000, 700)
        let pixels = Self.bandedPicture(width: width, height: height, bytesPerPixel: 3)
        let encoder = PNGEncoder(compressionLevel: level, strategy: strategy, filters: filters)
        let result = try Self.roundTrip(width: width, height: height, layout: PNGPixelLayout(channels: .rgb),
                                        pixels: pixels, encoder: encoder)
        #expect(result.decoded == pixels)
        #expect(Self.chunkTypes(result.file).last == "IEND")
    }

    /// Sixteen-bit samples, read back raw by the row reader (libpng's simplified reader would apply
    /// gamma and premultiply alpha).
    @Test func sixteenBitRGBAIsBandedToo() throws {
        let (width, height) = (400, 400)
        let pixels = Self.bandedPicture(width: width, height: height, bytesPerPixel: 8)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("png-\(UUID().uuidString).png").path
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        _ = try pixels.withUnsafeBytes {
            try PNGEncoder(compressionLevel: 1, filters: PNGEncoder.filterUp).write(
                width: width, height: height, layout: PNGPixelLayout(channels: .rgba, bitDepth: 16), pixels: $0, to: fd)
        }
        close(fd)
        let decoder = try PNGDecoder(file: InputFile(path: path))
        #expect(decoder.layout == PNGPixelLayout(channels: .rgba, bitDepth: 16))
        #expect(try decoder.readRegion(x: 0, y: 0, columns: width, rows: height) == pixels)
    }

    static func chunkTypes(_ file: Data) -> [String] {
        var types: [String] = []
        var offset = 8
        let bytes = [UInt8](file)
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            types.append(String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self))
            offset += 12 + length
        }
        return types
    }
}
