import Foundation
import Glibc
import Testing
import TestSupport

/// Issue 14: HDR video (BT.2020, HLG or PQ, as phones record it) comes out as the SDR picture it
/// would be shown as, not washed out.
@Suite struct HDRThumbnailTests {
    static func thumbnail(_ fixture: String) throws -> DecodedPNG {
        let scratch = try ScratchOutput("thumb.png")
        let run = try ToolRun.run(["thumbnail", "--at", "0", Fixture.path("hdr/\(fixture)"), "-o", scratch.path])
        #expect(run.status == 0 && run.errorLines == [])
        return try DecodedPNG(path: scratch.path)
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        let squared = zip(a, b).reduce(0.0) { sum, pair in sum + pow(Double(Int(pair.0) - Int(pair.1)), 2) }
        return 10 * log10(255 * 255 / max(squared / Double(a.count), 1e-9))
    }

    /// Made from photo-sdr.png with reference white at 203 cd/m²: the thumbnail is that picture again,
    /// within what 4:2:0 10-bit coding loses (33.6 dB for the same picture in SDR H.264).
    @Test(arguments: ["photo-hlg.mp4", "photo-pq.mp4"])
    func hdrComesBackAsTheSDRPicture(fixture: String) throws {
        let thumbnail = try Self.thumbnail(fixture)
        let sdr = try DecodedPNG(path: Fixture.path("hdr/photo-sdr.png"))
        #expect(thumbnail.width == sdr.width && thumbnail.height == sdr.height)
        let psnr = Self.psnr(thumbnail.bytes, sdr.bytes)
        #expect(psnr >= 30, "\(psnr) dB")
    }

    /// 75% HLG bars come back as 100% SDR bars, each within 3 levels.
    @Test func hlgBarsComeBackWithinThreeLevels() throws {
        let thumbnail = try Self.thumbnail("bars-hlg.mp4")
        let sdr = try DecodedPNG(path: Fixture.path("hdr/bars-sdr.png"))
        for bar in 0..<8 {
            let ours = thumbnail.pixel(x: bar * 16 + 8, y: 8), expected = sdr.pixel(x: bar * 16 + 8, y: 8)
            #expect(zip(ours, expected).allSatisfy { abs(Int($0) - Int($1)) <= 3 }, "bar \(bar): \(ours) against \(expected)")
        }
    }

    /// A PQ ramp to 4000 cd/m²: gray rises monotonically to SDR white with no jump; red stays red.
    @Test func aPQRampRollsOffSmoothlyAndKeepsItsHue() throws {
        let thumbnail = try Self.thumbnail("ramp-pq.mp4")
        let gray = (0..<128).map { Int(thumbnail.pixel(x: $0, y: 4)[0]) }
        #expect(zip(gray, gray.dropFirst()).allSatisfy { $0 <= $1 + 1 }, "\(gray)")
        #expect(gray.last == 255)
        #expect(zip(gray, gray.dropFirst()).allSatisfy { $1 - $0 <= 40 }, "\(gray)")
        for column in 1..<128 {
            let red = thumbnail.pixel(x: column, y: 12).map(Int.init)
            #expect(red[1] <= 40 && red[2] <= 40 && red[0] >= 3 * max(red[1], red[2]), "column \(column): \(red)")
        }
    }
}
