import Foundation
import Testing
import TestSupport

/// An interlaced frame is deinterlaced before it is scaled or written.
@Suite struct DeinterlaceTests {
    static func thumbnail(_ options: [String]) throws -> DecodedPNG {
        let scratch = try ScratchOutput("frame.png")
        let run = try ToolRun.run(["thumbnail", "--at", "0.04"] + options + [Fixture.path("video/interlaced.mp4"), "-o", scratch.path])
        #expect(run.status == 0 && run.errorLines == [])
        return try DecodedPNG(path: scratch.path)
    }

    /// Combing: how much more rows differ from the next row than from the row after, on the green channel.
    static func combing(_ picture: DecodedPNG) -> Double {
        var adjacent = 0.0, second = 0.0
        for y in 0..<(picture.height - 2) {
            for x in 0..<picture.width {
                let here = Double(picture.pixel(x: x, y: y)[1])
                adjacent += abs(here - Double(picture.pixel(x: x, y: y + 1)[1]))
                second += abs(here - Double(picture.pixel(x: x, y: y + 2)[1]))
            }
        }
        return max(0, adjacent - second / 2) / Double(picture.width * (picture.height - 2))
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double { peakSignalToNoise(a, b) }

    /// The README's figures, measured by `combing` above: combing 33 times lower than the woven
    /// frame's (bwdif's: 41 times), 23.9 dB from bwdif's picture.
    @Test func combingIsGoneAndThePictureIsCloseToBwdif() throws {
        let woven = try Self.thumbnail(["--no-deinterlace"])
        let deinterlaced = try Self.thumbnail([])
        let woveCombing = Self.combing(woven), ourCombing = Self.combing(deinterlaced)
        #expect(ourCombing * 33 <= woveCombing, "\(ourCombing) against \(woveCombing) woven: \(woveCombing / ourCombing) times lower")
        let bwdif = try DecodedPNG(path: Fixture.path("video/interlaced.bwdif.png"))
        #expect(woveCombing >= Self.combing(bwdif) * 41, "bwdif's picture: \(woveCombing / Self.combing(bwdif)) times lower")
        let ours = Self.psnr(deinterlaced.bytes, bwdif.bytes), wovenPSNR = Self.psnr(woven.bytes, bwdif.bytes)
        #expect(ours >= 23.85 && ours >= wovenPSNR + 6, "\(ours) dB from bwdif, woven \(wovenPSNR) dB")
    }
}
