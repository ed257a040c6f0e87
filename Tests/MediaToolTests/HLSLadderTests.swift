import Foundation
import Testing
import TestSupport

/// `mediatool transcode --hls DIR`: a ladder of fragmented MP4 renditions from one decode, their
/// segments by byte range, read back by ffprobe, ffmpeg and Chromium.
@Suite struct HLSLadderTests {
    static let ffmpeg = TranscodeTests.ffmpeg
    static let ffprobe = TranscodeTests.ffprobe
    static let hasReferences = TranscodeTests.hasReferences

    /// A 9 s clip of `width` x `height` at 10 frames a second with a tone, made by ffmpeg.
    static func clip(_ width: Int, _ height: Int, in folder: URL) throws -> String {
        try TranscodeTests.made("clip.mp4", in: folder, ["-f", "lavfi", "-i", "testsrc2=s=\(width)x\(height):r=10:d=9", "-f", "lavfi",
                                                         "-i", "sine=frequency=440:duration=9", "-c:v", "libx264", "-preset", "ultrafast",
                                                         "-c:a", "aac", "-pix_fmt", "yuv420p"])
    }

    /// The ladder of `video` in `folder/hls`: the run and the master playlist's lines.
    static func ladder(of video: String, in folder: URL, _ options: [String] = []) throws -> (run: ToolRun, master: [String]) {
        let run = try ToolRun.run(["transcode", "--hls", folder.appendingPathComponent("hls").path] + options + [video], deadline: 300)
        let master = (try? String(contentsOf: folder.appendingPathComponent("hls/clip.m3u8"), encoding: .utf8)) ?? ""
        return (run, master.split(separator: "\n").map(String.init))
    }

    /// The times of the keyframes of `path`'s video, as ffprobe reads its packets.
    static func keyframeTimes(_ path: String) throws -> [Double] {
        let run = try ChildProcess.run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags",
                                                 "-of", "csv=p=0", path], deadline: 60)
        return String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            return fields.count == 2 && fields[1].hasPrefix("K") ? Double(fields[0]) : nil
        }
    }

    /// A 640x480 clip gives renditions at 480 and 360 lines, largest first, each with the
    /// master's BANDWIDTH, RESOLUTION and CODECS; ffprobe and ffmpeg open the master and decode
    /// every rendition through it; their keyframes fall at the same times, 4 s apart; each
    /// segment's byte range starts with a fragment, and the initialisation's ends with the movie.
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func aLaddersRenditionsShareTheirSegmentsAndPlayThroughTheMaster() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (run, master) = try Self.ladder(of: try Self.clip(640, 480, in: folder), in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(master.first == "#EXTM3U")
        let streams = master.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }
        #expect(streams.count == 2 && master.filter { !$0.hasPrefix("#") } == ["clip.480p.m3u8", "clip.360p.m3u8"], "\(master)")
        #expect(streams.first?.contains("RESOLUTION=640x480,CODECS=\"avc1.") == true && streams.last?.contains("RESOLUTION=480x360,") == true)
        #expect(streams.allSatisfy { $0.contains("BANDWIDTH=") && $0.contains(",mp4a.40.2\"") })
        let hls = folder.appendingPathComponent("hls")
        let opened = try ChildProcess.run(Self.ffprobe, ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0",
                                                         hls.appendingPathComponent("clip.m3u8").path], deadline: 60)
        let streamLines = Set(String(decoding: opened.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init))
        #expect(streamLines.isSuperset(of: ["h264,640,480", "h264,480,360", "aac"]), "\(streamLines)")
        let decoded = try ChildProcess.run(Self.ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-i",
                                                         hls.appendingPathComponent("clip.m3u8").path, "-map", "0", "-f", "null", "-"],
                                           deadline: 120)
        #expect(decoded.status == 0 && decoded.standardError.isEmpty, "\(String(decoding: decoded.standardError, as: UTF8.self))")
        var keyframes: [[Double]] = []
        for rung in ["480p", "360p"] {
            let video = hls.appendingPathComponent("clip.\(rung).mp4").path
            keyframes.append(try Self.keyframeTimes(video))
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: video)))
            let playlist = try String(contentsOf: hls.appendingPathComponent("clip.\(rung).m3u8"), encoding: .utf8)
            let lines = playlist.split(separator: "\n").map(String.init)
            #expect(lines.contains("#EXT-X-ENDLIST") && lines.contains("#EXT-X-TARGETDURATION:4"), "\(lines)")
            let map = lines.first { $0.hasPrefix("#EXT-X-MAP:URI=\"clip.\(rung).mp4\",BYTERANGE=\"") }
            let initialisation = map.flatMap { Int($0.split(separator: "\"")[3].split(separator: "@")[0]) } ?? 0
            #expect(initialisation > 8 && String(decoding: bytes[4..<8], as: UTF8.self) == "ftyp")
            let ranges = lines.filter { $0.hasPrefix("#EXT-X-BYTERANGE:") }.map { line in
                line.dropFirst("#EXT-X-BYTERANGE:".count).split(separator: "@").compactMap { Int($0) }
            }
            #expect(ranges.count == 3 && ranges.first?.last == initialisation, "\(ranges)")
            // One after another, to the file's end.
            #expect(ranges.reduce(initialisation) { $0 == $1.last ? $1[0] + $1[1] : -1 } == bytes.count)
            for range in ranges where range.count == 2 && range[1] + range[0] <= bytes.count {
                #expect(String(decoding: bytes[(range[1] + 4)..<(range[1] + 8)], as: UTF8.self) == "moof")
            }
            let lengths = lines.filter { $0.hasPrefix("#EXTINF:") }.compactMap { Double($0.dropFirst(8).dropLast()) }
            #expect(lengths == [4, 4, 1], "\(lengths)")
        }
        #expect(keyframes[0] == keyframes[1] && keyframes[0].count == 3, "\(keyframes)")
        // 4 s apart, give or take the sound's priming (1024 samples: 23 ms at 44.1 kHz), by which
        // the muxer starts every frame but the first later, as it does the sound.
        let gaps = zip(keyframes[0], keyframes[0].dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { abs($0 - 4) < 0.03 }, "\(keyframes[0])")
    }

    /// A segment's bytes after the initialisation's are a video of their own: decoded from its
    /// keyframe, 4 s in.
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func aSegmentPlaysFromItsOwnBytes() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.ladder(of: try Self.clip(320, 240, in: folder), in: folder, ["--no-sound"]).run.status == 0)
        let hls = folder.appendingPathComponent("hls")
        let playlist = try String(contentsOf: hls.appendingPathComponent("clip.240p.m3u8"), encoding: .utf8)
        let lines = playlist.split(separator: "\n").map(String.init)
        let initialisation = Int(lines.first { $0.hasPrefix("#EXT-X-MAP:") }!.split(separator: "\"")[3].split(separator: "@")[0])!
        let second = lines.filter { $0.hasPrefix("#EXT-X-BYTERANGE:") }[1].dropFirst(17).split(separator: "@").map { Int($0)! }
        let bytes = [UInt8](try Data(contentsOf: hls.appendingPathComponent("clip.240p.mp4")))
        let segment = folder.appendingPathComponent("segment.mp4")
        try Data(bytes[0..<initialisation] + bytes[second[1]..<(second[1] + second[0])]).write(to: segment)
        let frames = try ChildProcess.run(Self.ffprobe, ["-v", "error", "-show_entries", "frame=key_frame,pts_time", "-of", "csv=p=0",
                                                         segment.path], deadline: 60)
        let listed = String(decoding: frames.standardOutput, as: UTF8.self).split(separator: "\n")
        #expect(frames.status == 0 && listed.count == 40, "\(listed.count) frames: \(String(decoding: frames.standardError, as: UTF8.self))")
        let first = listed.first?.split(separator: ",")
        #expect(first?.first == "1" && (first?.last).flatMap { Double($0) }.map { abs($0 - 4) < 0.01 } == true, "\(listed.prefix(2))")
    }

    /// A frame after a gap keeps its time in a segmented rendition: the fragment before it lasts
    /// until it (the last frame of a fragment given a nominal length moved it 3 hours early).
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func aFrameAfterAGapKeepsItsTime() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try TranscodeTests.made("plain.mkv", in: folder, ["-f", "lavfi", "-i", "testsrc2=s=64x48:r=10:d=1", "-c:v", "libx264",
                                                                       "-bf", "0", "-pix_fmt", "yuv420p"])
        let gap = try TranscodeTests.made("clip.mkv", in: folder, ["-i", plain, "-c", "copy", "-bsf:v", "setts=ts=if(gte(N\\,9)\\,PTS+600000\\,PTS)"])
        let (run, _) = try Self.ladder(of: gap, in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        let keyframes = try Self.keyframeTimes(folder.appendingPathComponent("hls/clip.48p.mp4").path)
        #expect(keyframes.count == 2 && abs((keyframes.last ?? 0) - 600.9) < 0.01, "\(keyframes)")
        let playlist = try String(contentsOf: folder.appendingPathComponent("hls/clip.48p.m3u8"), encoding: .utf8)
        #expect(playlist.contains("#EXTINF:600.900,"), "\(playlist)")
    }

    /// A portrait video's rungs go by its width, the shorter side: 480x640 and 360x480.
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func aPortraitVideosRungsGoByItsWidth() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (run, master) = try Self.ladder(of: try Self.clip(480, 640, in: folder), in: folder, ["--no-sound"])
        #expect(run.status == 0, "\(run.standardError)")
        let streams = master.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }
        #expect(streams.count == 2 && streams[0].contains("RESOLUTION=480x640,") && streams[1].contains("RESOLUTION=360x480,"), "\(master)")
        #expect(streams.allSatisfy { !$0.contains("mp4a") })
    }

    /// The ladder's files are written together or not at all, beside the master in the folder
    /// named: a ladder whose encoders need more than --max-memory leaves nothing, and says so.
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func aLadderOverTheMemoryLimitLeavesNoFile() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (run, _) = try Self.ladder(of: try Self.clip(640, 480, in: folder), in: folder, ["--preset", "veryslow", "--max-memory", "200M"])
        #expect(run.status == 1 && run.standardError.contains("and 1 smaller renditions"), "\(run.standardError)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("hls").path)) ?? []
        #expect(left.isEmpty, "\(left)")
    }

    /// --hls names a folder of its own: with -o or --out-dir, or a --name that is no playlist,
    /// the run is refused before any work.
    @Test func hlsWithAnotherOutputIsAUsageError() throws {
        for options in [["-o", "x.mp4"], ["--out-dir", "x"], ["--name", "{stem}.mp4"]] {
            let run = try ToolRun.run(["transcode", "--hls", "out"] + options + [Fixture.path("video/sync.mov")])
            #expect(run.status == 64 && (run.standardError.contains("--hls") || run.standardError.contains(".m3u8")), "\(options): \(run.standardError)")
        }
    }

    /// A file named as a rendition of a ladder the run writes is never an input it replaces:
    /// given by name beside its video, or found in the folder without a master that lists it
    /// (an upload that merely looks like one), the run is refused before any work, --overwrite
    /// or not; a rendition a master of the folder lists is passed over as the run's own output.
    /// A video whose master would be named as another's rendition playlist fails, alone.
    @Test func aRenditionNamedAsAnInputIsNeverReplaced() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("clip.mov").path
        try FileManager.default.copyItem(atPath: Fixture.path("video/sync.mov"), toPath: video)
        let impostor = folder.appendingPathComponent("clip.64p.mp4").path
        try FileManager.default.copyItem(atPath: Fixture.path("video/counter.mp4"), toPath: impostor)
        let before = try Data(contentsOf: URL(fileURLWithPath: impostor))
        for inputs in [[video, impostor], [folder.path]] {
            let run = try ToolRun.run(["transcode", "--hls", folder.path, "--overwrite"] + inputs, deadline: 120)
            #expect(run.status == 64 && run.standardError.contains("inputs are never written to"), "\(inputs): \(run.standardError)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: impostor)) == before)
        let other = folder.appendingPathComponent("other.mp4").path
        try FileManager.default.moveItem(atPath: impostor, toPath: other)
        #expect(try ToolRun.run(["transcode", "--hls", folder.path, video], deadline: 120).status == 0)
        // The ladder's own rendition, listed by its master, is passed over; the other video is
        // transcoded; one named as a rendition of it fails alone.
        let renamed = folder.appendingPathComponent("other.240p.mkv").path
        try FileManager.default.copyItem(atPath: Fixture.path("video/counter.mkv"), toPath: renamed)
        let found = try ToolRun.run(["transcode", "--hls", folder.path, "--overwrite", "--json", folder.path], deadline: 120)
        #expect(found.status == 1 && found.standardError.contains("1 of mediatool's own outputs passed over"), "\(found.standardError)")
        let results = String(decoding: found.standardOutput, as: UTF8.self).split(separator: "\n").filter { !$0.contains("\"progress\"") }
        #expect(results.count == 3, "\(results)")
        #expect(results.contains { $0.contains(renamed) && $0.contains("would be named as a rendition's playlist") }, "\(results)")
    }

    /// A FIFO where a master would be, beside a file named as its rendition, is not read to
    /// learn whether it lists it (opening it waited for a writer for ever): the file is no known
    /// rendition, and the run is refused at once.
    @Test func aFIFONamedAsAMasterIsNotWaitedOn() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: Fixture.path("video/sync.mov"), toPath: folder.appendingPathComponent("clip.mov").path)
        try FileManager.default.copyItem(atPath: Fixture.path("video/counter.mp4"), toPath: folder.appendingPathComponent("clip.64p.mp4").path)
        #expect(mkfifo(folder.appendingPathComponent("clip.m3u8").path, 0o600) == 0)
        let planned = try ToolRun.run(["transcode", "--hls", folder.path, folder.path], deadline: 60)
        #expect(planned.status == 64 && planned.standardError.contains("inputs are never written to"), "\(planned.standardError)")
    }

    /// Chromium plays the master's first rendition, a fragmented MP4, on its own: its size and
    /// length as written.
    @Test(.enabled(if: try Requirement.tool(PreviewTests.chromium) && hasReferences,
                   "Chromium or ffmpeg is not installed (scripts/bootstrap test installs them)"))
    func chromiumPlaysTheFirstRendition() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (run, master) = try Self.ladder(of: try Self.clip(320, 240, in: folder), in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        let first = try #require(master.first { !$0.hasPrefix("#") }).replacingOccurrences(of: ".m3u8", with: ".mp4")
        let video = try Data(contentsOf: folder.appendingPathComponent("hls").appendingPathComponent(first))
        let page = """
            <!doctype html><html><body><video id="rendition" muted playsinline src="data:video/mp4;base64,\(video.base64EncodedString())"></video><script>
            const video = document.getElementById('rendition');
            video.onloadedmetadata = () => { document.body.dataset.played = [video.videoWidth, video.videoHeight, video.duration.toFixed(1)].join(' '); };
            video.onerror = () => { document.body.dataset.played = 'error'; };
            </script></body></html>
            """
        let pagePath = folder.appendingPathComponent("page.html")
        try page.write(to: pagePath, atomically: true, encoding: .utf8)
        let dom = try PreviewTests.settledDOM(pagePath)
        #expect(dom.contains("data-played=\"320 240 9.0\""), "\(dom.prefix(300))")
    }
}
