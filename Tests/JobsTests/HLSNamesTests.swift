@testable import FFmpeg
import Imaging
@testable import Jobs
import FileIO
import Testing
@testable import WebVideo

/// The names of an HLS ladder's files: what its worker may open beside the master, what a later
/// run passes over, and how its playlists write them.
@Suite struct HLSNamesTests {
    /// A rendition's video and playlist are the master's base, a rung and their extension; no
    /// other file is (the worker asks for the ones it writes, and a taken-over one gets no other).
    @Test func aWorkerMayOpenOnlyItsLaddersRenditionFiles() {
        let names = HLSNames(master: "out/clip.m3u8")
        for path in ["out/clip.720p.mp4", "out/clip.720p.m3u8", "out/clip.1080p.mp4", "out/clip.64p.m3u8"] {
            #expect(names.isRenditionFile(path), "\(path)")
        }
        for path in ["out/clip.m3u8", "out/clip.mp4", "out/clip.720p.jpg", "out/clip.p.mp4", "out/clip.72x0p.mp4", "out/other.720p.mp4",
                     "out/clip.720p.mp4/../../etc.720p.mp4", "clip.720p.mp4", "out/clip.x.720p.mp4", "out/clip.99999p.mp4"] {
            #expect(!names.isRenditionFile(path), "\(path)")
        }
        #expect(HLSNames.master(ofRendition: "a/b.c.480p.mp4") == "a/b.c.m3u8")
        #expect(HLSNames.master(ofRendition: "a/.480p.mp4") == nil && HLSNames.master(ofRendition: "a/b.mp4") == nil)
    }

    /// The ladder's job lets its worker open a rendition's video or playlist beside the master,
    /// as many as the rungs make, and nothing else: not a name the user gave, not another file.
    @Test func theLadderJobOpensNothingButItsRenditions() throws {
        var options = TranscodeOptions()
        options.makesLadder = true
        let rule = try #require(Transcoder(options: options).ladderJob.allowsOutput)
        let planned = [PlannedOutput(path: "out/clip.m3u8")]
        #expect(rule(planned, "out/clip.720p.mp4", false, []))
        #expect(!rule(planned, "out/clip.720p.mp4", true, []))
        #expect(!rule(planned, "out/other.mp4", false, []))
        #expect(!rule(planned, "out/clip.jpg", false, []))
        let eight = (1...8).map { "out/clip.\($0)p.mp4" }
        #expect(!rule(planned, "out/clip.720p.m3u8", false, eight))
    }

    /// A name's quote, line break, '#', space or non-ASCII letter is percent-encoded where a
    /// playlist names a file: read back, each names the file and nothing else.
    @Test func aPlaylistNamesItsFilesAsURIs() {
        #expect(PathBytes.urlPath("clip.720p.mp4") == "clip.720p.mp4")
        #expect(PathBytes.urlPath("a \"b\"\n#EXT-X-ENDLIST é.mp4") == "a%20%22b%22%0A%23EXT-X-ENDLIST%20%C3%A9.mp4")
        let rendition = HLSRendition(name: "240p", width: 320, height: 240, bytes: 300, initialisationBytes: 100,
                                     segments: [.init(offset: 100, bytes: 150, seconds: 0), .init(offset: 250, bytes: 50, seconds: 4)],
                                     segmentSeconds: [4, 1.5], codecs: "avc1.64000d", peakBitsPerSecond: 300, averageBitsPerSecond: 290)
        let playlist = HLSPlaylist.media(of: rendition, videoName: "x\ny.240p.mp4").split(separator: "\n").map(String.init)
        #expect(playlist == ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:4", "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD",
                             "#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-MAP:URI=\"x%0Ay.240p.mp4\",BYTERANGE=\"100@0\"",
                             "#EXTINF:4.000,", "#EXT-X-BYTERANGE:150@100", "x%0Ay.240p.mp4",
                             "#EXTINF:1.500,", "#EXT-X-BYTERANGE:50@250", "x%0Ay.240p.mp4", "#EXT-X-ENDLIST"])
    }

    /// The rungs below a video's size by its shorter side, each side even: 4K gives four, a
    /// portrait phone video's go by its width, a small one has one at its own size.
    @Test func theRungsGoByTheShorterSide() {
        func sizes(_ width: Int, _ height: Int, maxHeight: Int? = nil) -> [String] {
            let natural = DisplayGeometry(codedWidth: width, codedHeight: height, pixelAspect: (1, 1), orientation: .identity, maxWidth: nil,
                                          maxHeight: nil)
            let fitted = maxHeight.map { DisplayGeometry(codedWidth: width, codedHeight: height, pixelAspect: (1, 1), orientation: .identity,
                                                         maxWidth: nil, maxHeight: $0) } ?? natural
            return Transcoder.ladder(natural: natural, fitted: fitted.evenSided).map { "\($0.outputWidth)x\($0.outputHeight)" }
        }
        #expect(sizes(3840, 2160) == ["1920x1080", "1280x720", "854x480", "640x360"])
        #expect(sizes(1080, 1920) == ["1080x1920", "720x1280", "480x854", "360x640"])
        #expect(sizes(1920, 800) == ["1920x800", "1728x720", "1152x480", "864x360"])
        #expect(sizes(320, 240) == ["320x240"])
        // A box given (--height 1080 of a portrait video): the largest fits it, the rungs below
        // are made from the picture as shown, not from the fitted one's rounding.
        #expect(sizes(1080, 1920, maxHeight: 1080) == ["608x1080", "480x854", "360x640"])
    }
}
