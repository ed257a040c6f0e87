import Foundation
import Testing
import FileIO
@testable import MediaProbe
@testable import Ingest

/// What ingest makes a web video of: an upload browsers would not play as it is, and why.
@Suite struct WebPlayabilityTests {
    /// An iPhone-like H.264 MP4 that every browser plays: 1080p, AAC, upright, SDR.
    static var playable: ProbeResult {
        var probe = ProbeResult(kind: .video, format: "mp4", mime: "video/mp4")
        (probe.width, probe.height, probe.codec, probe.profile, probe.bitDepth, probe.pixelFormat) = (1920, 1080, "h264", "High", 8, "yuv420p")
        probe.rotation = 0
        probe.audio = [ProbeResult.AudioStream(codec: "aac", channels: 2, sampleRate: 44100, language: nil)]
        return probe
    }

    @Test func anH264MP4WithAACAndItsIndexFirstPlaysAsItIs() {
        #expect(WebPlayability.reasons(Self.playable, movieFirst: true) == [])
        var portrait = Self.playable
        (portrait.width, portrait.height) = (1080, 1920)
        #expect(WebPlayability.reasons(portrait, movieFirst: true) == [])
        var silent = Self.playable
        silent.audio = []
        #expect(WebPlayability.reasons(silent, movieFirst: true) == [])
    }

    @Test func eachThingBrowsersDoNotPlayIsNamed() {
        func reasons(_ change: (inout ProbeResult) -> Void, movieFirst: Bool? = true) -> [String] {
            var probe = Self.playable
            change(&probe)
            return WebPlayability.reasons(probe, movieFirst: movieFirst)
        }
        #expect(reasons { $0.format = "mov" } == ["a mov file, not an MP4"])
        #expect(reasons { ($0.codec, $0.profile) = ("hevc", "Main 10") } == ["hevc video, not H.264"])
        #expect(reasons { $0.profile = "High 4:4:4 Predictive" } == ["H.264's High 4:4:4 Predictive profile"])
        #expect(reasons { ($0.bitDepth, $0.pixelFormat) = (10, "yuv420p10le") } == ["10-bit video", "yuv420p10le pixels, not 4:2:0"])
        #expect(reasons { $0.interlaced = true } == ["interlaced"])
        #expect(reasons { $0.hdr = "hlg" } == ["HDR (hlg)"])
        #expect(reasons { $0.rotation = 90 } == ["stored rotated by 90 degrees"])
        #expect(reasons { ($0.width, $0.height) = (3840, 2160) } == ["3840x2160, over 1080p"])
        #expect(reasons { $0.audio = [ProbeResult.AudioStream(codec: "pcm_s16le", channels: 2, sampleRate: 48000, language: nil)] }
                == ["pcm_s16le sound, not AAC"])
        #expect(reasons({ _ in }, movieFirst: false) == ["its index (moov) after its media data"])
        #expect(reasons({ _ in }, movieFirst: nil) == ["no index (moov) found before its media data"])
        var probe = Self.playable
        #expect(WebPlayability.reasons(probe, movieFirst: true, cutShort: true) == ["cut short: frames its index lists lie past its end"])
        #expect(WebPlayability.reasons(probe, movieFirst: true, firstFrameInterlaced: { true }) == ["interlaced"])
        #expect(WebPlayability.reasons(probe, movieFirst: true, firstFrameInterlaced: { nil }) == ["its first frame does not decode"])
        probe.interlaced = true
        #expect(WebPlayability.reasons(probe, movieFirst: true, firstFrameInterlaced: { false }) == ["interlaced"])
    }

    /// The boxes before the index, read from the file: a box's size is a claim, never followed
    /// past the file's end or taken below its header, and the search ends after a few boxes.
    static func movieFirst(_ boxes: [(type: String, size: UInt64, body: Int)]) throws -> Bool? {
        var bytes: [UInt8] = []
        for box in boxes {
            if box.size > UInt64(UInt32.max) {
                bytes += [0, 0, 0, 1] + Array(box.type.utf8) + withUnsafeBytes(of: box.size.bigEndian, Array.init)
            } else {
                bytes += withUnsafeBytes(of: UInt32(box.size).bigEndian, Array.init) + Array(box.type.utf8)
            }
            bytes += [UInt8](repeating: 0, count: box.body)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("boxes-\(UUID().uuidString).mp4").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return WebPlayability.movieComesFirst(in: try InputFile(path: path))
    }

    @Test func theIndexIsFoundBeforeOrAfterTheMediaData() throws {
        #expect(try Self.movieFirst([("ftyp", 16, 8), ("free", 8, 0), ("moov", 16, 8), ("mdat", 16, 8)]) == true)
        #expect(try Self.movieFirst([("ftyp", 16, 8), ("mdat", 16, 8), ("moov", 16, 8)]) == false)
    }

    @Test func boxesThatLieAboutTheirSizeEndTheSearch() throws {
        // Past the file's end; below its own header; a 64-bit size past the end; zero (to the end).
        #expect(try Self.movieFirst([("ftyp", 1 << 30, 8), ("moov", 16, 8)]) == nil)
        #expect(try Self.movieFirst([("ftyp", 4, 8), ("moov", 16, 8)]) == nil)
        #expect(try Self.movieFirst([("ftyp", UInt64(Int64.max), 8), ("moov", 16, 8)]) == nil)
        #expect(try Self.movieFirst([("ftyp", 0, 8), ("moov", 16, 8)]) == nil)
        // An index that says it runs past the file's end, over the media data: strict players wait for it.
        #expect(try Self.movieFirst([("ftyp", 16, 8), ("moov", 0xFFFF_FFF0, 8), ("mdat", 16, 8)]) == nil)
        // More small boxes before it than any MP4 has: not looked for further.
        let many = Array(repeating: (type: "free", size: UInt64(8), body: 0), count: WebPlayability.mostBoxesBeforeMovie)
        #expect(try Self.movieFirst([("ftyp", 16, 8)] + many + [("moov", 16, 8)]) == nil)
        #expect(try Self.movieFirst([("ftyp", 16, 8)] + many.dropLast(2) + [("moov", 16, 8)]) == true)
    }
}
