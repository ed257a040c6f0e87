import FileIO
import Foundation
import Testing
import TestSupport
import WebPCodec

let dwebp = "/usr/bin/dwebp"

/// dwebp's decoding of a WebP file, as RGBA (PAM).
func dwebpDecoding(_ path: String) throws -> NetpbmPicture {
    let run = try ChildProcess.run(dwebp, ["-quiet", path, "-pam", "-o", "-"])
    try #require(run.status == 0, "dwebp \(path): \(String(decoding: run.standardError, as: UTF8.self))")
    return try NetpbmPicture(run.standardOutput)
}

/// RGBA to the `channels` the decoder gives.
func dropAlpha(_ rgba: [UInt8], channels: Int) -> [UInt8] {
    channels == 4 ? rgba : stride(from: 0, to: rgba.count, by: 4).flatMap { rgba[$0..<($0 + 3)] }
}

/// `WebPDecoder`: regions as libwebp's dwebp decodes the whole picture.
@Suite struct WebPDecoderTests {
    @Test(.enabled(if: try Requirement.tool(dwebp)), arguments: ["webp/lossy.webp", "webp/orientation1.webp", "webp/orientation6.webp"])
    func regionsAreDwebps(name: String) throws {
        let path = RepositoryFixtures.path(name)
        let reference = try dwebpDecoding(path)
        let decoder = try WebPDecoder(bytes: RepositoryFixtures.bytes(name))
        #expect(decoder.width == reference.width && decoder.height == reference.height && !decoder.isAnimated)
        let channels = decoder.hasAlpha ? 4 : 3
        for (x, y, width, height) in [(0, 0, reference.width, reference.height), (1, 3, 17, 9), (17, 19, 20, 20), (reference.width - 5, reference.height - 3, 5, 3)] {
            let pixels = try decoder.decode(x: x, y: y, width: width, height: height)
            #expect(pixels == dropAlpha(reference.rect(x: x, y: y, width: width, height: height), channels: channels), "\(name) at \(x),\(y) \(width)x\(height)")
        }
    }

    /// The lossy fixture's decoding as dwebp made it when the fixture was made (lossy.expected.ppm).
    @Test func lossyIsTheStoredDecoding() throws {
        let expected = try NetpbmPicture(Data(RepositoryFixtures.bytes("webp/lossy.expected.ppm")))
        let decoder = try WebPDecoder(bytes: RepositoryFixtures.bytes("webp/lossy.webp"))
        #expect(try decoder.decode(x: 0, y: 0, width: decoder.width, height: decoder.height) == expected.bytes)
        #expect(expected.channels == 3 && !decoder.hasAlpha)
    }

    @Test func animationIsItsFirstFrame() throws {
        let decoder = try WebPDecoder(bytes: RepositoryFixtures.bytes("webp/animated.webp"))
        #expect(decoder.isAnimated)
        let pixels = try decoder.decode(x: 0, y: 0, width: decoder.width, height: decoder.height)
        #expect(pixels.count == decoder.width * decoder.height * (decoder.hasAlpha ? 4 : 3))
    }

    @Test func signatureAndErrors() throws {
        #expect(WebPDecoder.hasSignature(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)))
        #expect(!WebPDecoder.hasSignature(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)))
        #expect(!WebPDecoder.hasSignature(Array("RIFF".utf8)))
        // A truncated file may give its header; its pixels are an error.
        #expect(throws: WebPError.self) {
            let decoder = try WebPDecoder(bytes: RepositoryFixtures.bytes("bad/webp-truncated.webp"))
            _ = try decoder.decode(x: 0, y: 0, width: decoder.width, height: decoder.height)
        }
        #expect(throws: WebPError.self) { try WebPDecoder(bytes: []) }
        #expect(WebPError.tooLarge(width: 20000, height: 5).description == "WebP holds at most 16383x16383 pixels, not 20000x5")
    }
}

/// `WebPEncoder`: lossless output is the pixels exactly, for libwebp's own dwebp too; metadata
/// chunks come back as given.
@Suite struct WebPEncoderTests {
    static func noise(count: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    @Test(.enabled(if: try Requirement.tool(dwebp)), arguments: [3, 4])
    func losslessRoundTripIsExact(channels: Int) throws {
        let (width, height) = (29, 17)
        var pixels = Self.noise(count: width * height * channels, seed: UInt64(channels))
        if channels == 4 {
            // Colour under fully transparent pixels is not kept (libwebp may change it): none here.
            for index in stride(from: 3, to: pixels.count, by: 4) { pixels[index] = max(1, pixels[index]) }
        }
        let file = try pixels.withUnsafeBytes { try WebPEncoder(lossless: true).encode(width: width, height: height, channels: channels, pixels: $0) }
        let decoder = try WebPDecoder(bytes: file)
        #expect(decoder.width == width && decoder.height == height && decoder.hasAlpha == (channels == 4))
        #expect(try decoder.decode(x: 0, y: 0, width: width, height: height) == pixels)
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.webp").path
        try Data(file).write(to: URL(fileURLWithPath: path))
        let reference = try dwebpDecoding(path)
        #expect(dropAlpha(reference.bytes, channels: channels) == pixels)
    }

    @Test(.enabled(if: try Requirement.tool(dwebp)))
    func lossyIsNearAndTheRightSize() throws {
        let (width, height) = (40, 24)
        let pixels = (0..<(width * height * 3)).map { UInt8(($0 / 3 % width) * 4 + ($0 / 3 / width) * 3 + $0 % 3 * 10) }
        let file = try pixels.withUnsafeBytes { try WebPEncoder(quality: 95).encode(width: width, height: height, channels: 3, pixels: $0) }
        #expect(Array(file[12..<16]) == Array("VP8 ".utf8))
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.webp").path
        try Data(file).write(to: URL(fileURLWithPath: path))
        let reference = try dwebpDecoding(path)
        #expect(reference.width == width && reference.height == height)
        let error = zip(dropAlpha(reference.bytes, channels: 3), pixels).map { abs(Int($0) - Int($1)) }.reduce(0, +)
        #expect(Double(error) / Double(pixels.count) < 3)
    }

    @Test func metadataChunksComeBack() throws {
        let metadata = WebPMetadata(iccProfile: try RepositoryFixtures.bytes("pictures/hp-srgb.icc"),
                                    exif: [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0], xmp: Array("<x:xmpmeta/>".utf8))
        let pixels = [UInt8](repeating: 128, count: 4 * 4 * 3)
        let file = try pixels.withUnsafeBytes { try WebPEncoder(lossless: true).encode(width: 4, height: 4, channels: 3, pixels: $0, metadata: metadata) }
        #expect(Array(file[12..<16]) == Array("VP8X".utf8))
        let decoder = try WebPDecoder(bytes: file)
        #expect(decoder.iccProfile == metadata.iccProfile && decoder.exif == metadata.exif && decoder.xmp == metadata.xmp)
        #expect(try decoder.decode(x: 0, y: 0, width: 4, height: 4) == pixels)
    }

    @Test func tooLargeIsRefused() throws {
        let pixels = [UInt8](repeating: 0, count: 16384 * 3)
        #expect(throws: WebPError.tooLarge(width: 16384, height: 1)) {
            try pixels.withUnsafeBytes { try WebPEncoder().encode(width: 16384, height: 1, channels: 3, pixels: $0) }
        }
    }
}
