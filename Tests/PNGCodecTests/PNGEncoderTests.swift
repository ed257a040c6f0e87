import CPNG
import Foundation
import PNGCodec
import Testing

@Suite struct PNGEncoderTests {
    /// Writes with the encoder, reads back with libpng's own simplified reader.
    static func roundTrip(width: Int, height: Int, layout: PNGPixelLayout, pixels: [UInt8], exif: [UInt8]? = nil)
        throws -> (file: Data, decoded: [UInt8], format: UInt32)
    {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("png-\(UUID().uuidString).png").path
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        try pixels.withUnsafeBytes { try PNGEncoder().write(width: width, height: height, layout: layout, pixels: $0, exif: exif, to: fd) }
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

    @Test func aWriteErrorIsReportedNotCrashed() {
        #expect(throws: PNGError.library(message: "Bad file descriptor")) {
            try [UInt8](repeating: 0, count: 3).withUnsafeBytes {
                try PNGEncoder().write(width: 1, height: 1, layout: PNGPixelLayout(channels: .rgb), pixels: $0, to: -1)
            }
        }
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
