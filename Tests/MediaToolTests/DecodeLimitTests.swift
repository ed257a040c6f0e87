import Foundation
import Glibc
import FileIO
import Testing
import TestSupport

/// Limits known from headers and stream parameters, before any decoder allocates.
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

    @Test func aHostilePixelAspectRatioIsWithinTheLimits() throws {
        let output = try ScratchOutput("out.png")
        let video = Fixture.path("video/wide-sar.mkv")
        let run = try ToolRun.run(["thumbnail", "--at", "0", "--max-memory", "64M", video, "-o", output.path])
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(video): decoding this 32768x4096 picture needs 2048 MiB of memory, over the limit of 64 MiB (--max-memory)"])
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
