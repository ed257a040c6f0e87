import Foundation
import FileIO
import Glibc
import PNGCodec
import Testing
import TestSupport

/// HDR video (BT.2020, HLG or PQ, as phones record it) comes out as the SDR picture it
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

    /// 75% HLG bars come back as 100% SDR bars, each within 2 levels (the README's claim).
    @Test func hlgBarsComeBackWithinTwoLevels() throws {
        let thumbnail = try Self.thumbnail("bars-hlg.mp4")
        let sdr = try DecodedPNG(path: Fixture.path("hdr/bars-sdr.png"))
        for bar in 0..<8 {
            let ours = thumbnail.pixel(x: bar * 16 + 8, y: 8), expected = sdr.pixel(x: bar * 16 + 8, y: 8)
            #expect(zip(ours, expected).allSatisfy { abs(Int($0) - Int($1)) <= 2 }, "bar \(bar): \(ours) against \(expected)")
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

/// `--hdr keep` writes HDR as HDR (16-bit, cICP); `--depth 16` keeps 10-bit precision.
@Suite struct HDRKeepTests {
    static func make(_ options: [String], _ fixture: String) throws -> (bytes: [UInt8], samples: [UInt8], width: Int) {
        let scratch = try ScratchOutput("thumb.png")
        let run = try ToolRun.run(["thumbnail", "--at", "0"] + options + [Fixture.path(fixture), "-o", scratch.path])
        #expect(run.status == 0 && run.errorLines == [])
        let decoder = try PNGDecoder(file: InputFile(path: scratch.path))
        #expect(decoder.layout.bitDepth == 16)
        let samples = try decoder.readRegion(x: 0, y: 0, columns: decoder.width, rows: decoder.height)
        return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch.path))), samples, decoder.width)
    }

    /// The cICP chunk (BT.2020 primaries, HLG, RGB, full range) stands before the image data, and the
    /// samples are the HLG signals: the 75% bars' white at 0.75.
    @Test func hdrKeptIsSixteenBitWithItsCodePoints() throws {
        let made = try Self.make(["--hdr", "keep"], "hdr/bars-hlg.mp4")
        let cicp = try #require(CropMetadataTests.pngChunk("cICP", in: made.bytes))
        #expect(cicp == [9, 18, 0, 1])
        let idat = try #require(CropMetadataTests.pngChunkOffset("IDAT", in: made.bytes))
        #expect(try #require(CropMetadataTests.pngChunkOffset("cICP", in: made.bytes)) < idat)
        let white = (0..<3).map { Int(made.samples[(8 * made.width + 8) * 6 + 2 * $0]) << 8 | Int(made.samples[(8 * made.width + 8) * 6 + 2 * $0 + 1]) }
        #expect(white.allSatisfy { abs($0 - 49151) <= 200 }, "\(white)")
    }

    /// An SDR 10-bit picture at 16 bits: no cICP, and the samples are the known bars (scripts/fixtures/videos.sh)
    /// within half a level, finer than 8 bits can say, and within 1 level of what zscale (zimg, through
    /// the ffmpeg CLI) makes of the same frame: references the tool did not make.
    @Test(.enabled(if: try Requirement.tool(HDRKeepTests.ffmpeg), "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func sixteenBitSDRKeepsPrecision() throws {
        let fixture = Fixture.path("video/bars-bt2020-10bit-hevc.mkv")
        let made = try Self.make(["--depth", "16"], "video/bars-bt2020-10bit-hevc.mkv")
        #expect(CropMetadataTests.pngChunk("cICP", in: made.bytes) == nil)
        #expect(made.width == 128 && made.samples.count == 128 * 32 * 6)
        let zscale = try ChildProcess.run(Self.ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-i", fixture, "-frames:v", "1",
                                                        "-vf", "zscale=rangein=limited:matrixin=2020_ncl:range=full:dither=none,format=rgb48be",
                                                        "-f", "rawvideo", "-"])
        #expect(zscale.status == 0, "\(String(decoding: zscale.standardError, as: UTF8.self))")
        let reference = [UInt8](zscale.standardOutput)
        try #require(reference.count == made.samples.count)
        func sample(_ bytes: [UInt8], _ index: Int) -> Int { Int(bytes[2 * index]) << 8 | Int(bytes[2 * index + 1]) }
        var finerThanEightBits = 0
        for (bar, expected) in ThumbnailTests.bars.enumerated() {
            for y in [4, 16, 28] {
                for channel in 0..<3 {
                    let index = (y * made.width + bar * 16 + 8) * 3 + channel
                    let ours = sample(made.samples, index)
                    #expect(abs(ours - Int(expected[channel]) * 257) <= 128, "bar \(bar), row \(y): \(ours), expected \(Int(expected[channel]) * 257)")
                    #expect(abs(ours - sample(reference, index)) <= 257, "bar \(bar), row \(y): \(ours), zscale \(sample(reference, index))")
                    if ours % 257 != 0 { finerThanEightBits += 1 }
                }
            }
        }
        #expect(finerThanEightBits > 0, "every sample is an 8-bit level: the 10-bit precision was lost")
    }

    /// PQ kept: cICP says PQ (transfer 16), and the ramp's gray samples are the PQ signals of
    /// 4000 (x/127)² cd/m² (scripts/fixtures/hdr.py) within what the fixture's 10-bit limited-range
    /// coding loses (a little over one 8-bit level), and within half a level of zscale's decoding.
    @Test(.enabled(if: try Requirement.tool(HDRKeepTests.ffmpeg), "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func pqKeptIsItsSignals() throws {
        let made = try Self.make(["--hdr", "keep"], "hdr/ramp-pq.mp4")
        #expect(try #require(CropMetadataTests.pngChunk("cICP", in: made.bytes)) == [9, 16, 0, 1])
        #expect(try #require(CropMetadataTests.pngChunkOffset("cICP", in: made.bytes)) < (try #require(CropMetadataTests.pngChunkOffset("IDAT", in: made.bytes))))
        try #require(made.width == 128 && made.samples.count == 128 * 16 * 6)
        let zscale = try ChildProcess.run(Self.ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-i", Fixture.path("hdr/ramp-pq.mp4"),
                                                        "-frames:v", "1", "-vf", "zscale=rangein=limited:matrixin=2020_ncl:range=full:dither=none,format=rgb48be",
                                                        "-f", "rawvideo", "-"])
        #expect(zscale.status == 0)
        let reference = [UInt8](zscale.standardOutput)
        try #require(reference.count == made.samples.count)
        func sample(_ bytes: [UInt8], _ index: Int) -> Int { Int(bytes[2 * index]) << 8 | Int(bytes[2 * index + 1]) }
        func pq(_ nits: Double) -> Double {
            let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
            let y = pow(nits / 10000, m1)
            return pow((c1 + c2 * y) / (1 + c3 * y), m2)
        }
        for x in 0..<128 {
            let expected = x == 0 ? 0 : Int((pq(4000 * pow(Double(x) / 127, 2)) * 65535).rounded())
            for channel in 0..<3 {
                let index = (4 * made.width + x) * 3 + channel
                #expect(abs(sample(made.samples, index) - expected) <= 320, "column \(x): \(sample(made.samples, index)), PQ \(expected)")
                #expect(abs(sample(made.samples, index) - sample(reference, index)) <= 128, "column \(x): zscale \(sample(reference, index))")
            }
        }
    }

    static let ffmpeg = "/usr/bin/ffmpeg"
}

/// Dolby Vision's base layer is what is decoded; profile 5's is compatible with nothing.
@Suite struct DolbyVisionTests {
    @Test func profileFiveWarnsThatColoursAreApproximate() throws {
        let scratch = try ScratchOutput("thumb.png")
        let source = Fixture.path("hdr/dolby-vision-5.mp4")
        let run = try ToolRun.run(["thumbnail", "--at", "0", source, "-o", scratch.path])
        #expect(run.status == 0)
        #expect(run.errorLines == ["mediatool: warning: \(source): Dolby Vision profile 5 has no HDR10, HLG or SDR base layer: its colours are approximate"])
    }

    /// Profile 8.4 (iPhones): the HLG base layer, tone mapped like any HLG picture, without a warning.
    @Test func profileEightFourIsItsHLGBaseLayer() throws {
        let scratch = try ScratchOutput("thumb.png")
        let run = try ToolRun.run(["thumbnail", "--at", "0", Fixture.path("hdr/dolby-vision-8.4.mp4"), "-o", scratch.path])
        #expect(run.status == 0 && run.errorLines == [])
        let sdr = try DecodedPNG(path: Fixture.path("hdr/photo-sdr.png"))
        let psnr = HDRThumbnailTests.psnr(try DecodedPNG(path: scratch.path).bytes, sdr.bytes)
        #expect(psnr >= 30, "\(psnr) dB")
    }

    /// Profile 8.1: the HDR10 base layer, tone mapped like any PQ picture, without a warning.
    @Test func profileEightIsItsHDR10BaseLayer() throws {
        let scratch = try ScratchOutput("thumb.png")
        let run = try ToolRun.run(["thumbnail", "--at", "0", Fixture.path("hdr/dolby-vision-8.mp4"), "-o", scratch.path])
        #expect(run.status == 0 && run.errorLines == [])
        let sdr = try DecodedPNG(path: Fixture.path("hdr/photo-sdr.png"))
        #expect(HDRThumbnailTests.psnr(try DecodedPNG(path: scratch.path).bytes, sdr.bytes) >= 30)
    }
}
