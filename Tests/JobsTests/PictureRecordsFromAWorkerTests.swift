import ImageCodecs
import Imaging
import Jobs
import Testing

/// What a worker sends a library's call: pictures as raw samples with their colour description,
/// read back whole whatever pieces the pipe gives, and refused when a length lies.
@Suite struct PictureRecordsFromAWorkerTests {
    static let record = PictureRecord(
        index: 0, pixels: PixelBuffer(width: 3, height: 2, channels: 3, bytesPerSample: 2, bytes: (0..<36).map { UInt8($0) }),
        metadata: PictureMetadata(color: ColorDescription(iccProfile: [1, 2, 3], srgbIntent: 0, gamma: 45455,
                                                          chromaticities: [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000]),
                                  exif: [9, 9], xmp: Array("<x/>".utf8), codePoints: [9, 16, 0, 1]),
        seconds: 1.25, orientation: .rotate90Clockwise, warnings: ["one", "two"])

    @Test func recordsComeBackWholeFromAnyPieces() throws {
        var second = Self.record
        second.index = 1
        second.seconds = nil
        second.metadata = PictureMetadata()
        second.warnings = []
        let bytes = Self.record.bytes + second.bytes
        for piece in [1, 7, 88, bytes.count] {
            var reader = PictureRecordReader(limit: 1 << 20)
            var read: [PictureRecord] = []
            for start in stride(from: 0, to: bytes.count, by: piece) {
                try bytes[start..<min(start + piece, bytes.count)].withUnsafeBytes { try reader.take($0) { read.append($0) } }
            }
            #expect(read == [Self.record, second], "pieces of \(piece)")
            #expect(reader.isAtRecordEnd)
        }
    }

    @Test func aRecordCutShortIsNotWhole() throws {
        var reader = PictureRecordReader(limit: 1 << 20)
        var read = 0
        try Self.record.bytes.dropLast().withUnsafeBytes { try reader.take($0) { _ in read += 1 } }
        #expect(read == 0 && !reader.isAtRecordEnd)
    }

    /// Sizes and lengths past the limits are refused from the header, before their bytes are kept.
    @Test(arguments: [(8, UInt32(0xFFFF_FFFF)), (12, UInt32(0)), (68, UInt32(0x7FFF_FFFF)), (84, UInt32(17 << 20))])
    func lyingLengthsAreRefused(offset: Int, value: UInt32) throws {
        var bytes = Self.record.bytes
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<offset + 4, with: $0) }
        var reader = PictureRecordReader(limit: 1 << 20)
        #expect(throws: PictureRecordError.self) {
            try bytes.prefix(100).withUnsafeBytes { try reader.take($0) { _ in } }
        }
    }

    @Test func pixelsOverTheLimitAreRefused() {
        var reader = PictureRecordReader(limit: 35)
        #expect(throws: PictureRecordError.self) { try Self.record.bytes.withUnsafeBytes { try reader.take($0) { _ in } } }
    }

    @Test(arguments: [(0, UInt8(0x4E)), (16, UInt8(5)), (17, UInt8(3)), (18, UInt8(9))])
    func malformedHeadersAreRefused(offset: Int, value: UInt8) {
        var bytes = Self.record.bytes
        bytes[offset] = value
        var reader = PictureRecordReader(limit: 1 << 20)
        #expect(throws: PictureRecordError.self) { try bytes.withUnsafeBytes { try reader.take($0) { _ in } } }
    }
}
