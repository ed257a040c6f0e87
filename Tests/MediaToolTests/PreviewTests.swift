import Foundation
import Testing
import TestSupport

/// `mediatool preview`, a video's hover loop as an animated WebP.
@Suite struct PreviewTests {
    static let ffmpeg = "/usr/bin/ffmpeg"
    static let chromium = StoryboardTests.chromium

    /// A copy of a fixture in a scratch folder, so that the preview is written beside it.
    static func scratchCopy(_ fixture: String, as name: String) throws -> (folder: URL, video: String) {
        let folder = try Fixture.scratchFolder()
        let video = folder.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: Fixture.path(fixture), toPath: video)
        return (folder, video)
    }

    /// CLIP.mp4 gives CLIP.preview.webp beside it: the frames of the counter fixture at their times,
    /// each shown 100 ms, looping; the JSON line says what was made.
    @Test(.enabled(if: try Requirement.tool("/usr/bin/webpmux") && Requirement.tool("/usr/bin/python3"),
                   "webpmux and Pillow read the preview (scripts/bootstrap test installs them)"))
    func aPreviewIsWrittenBesideItsVideo() throws {
        let (folder, video) = try Self.scratchCopy("video/counter.mp4", as: "clip.mp4")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["preview", "--segments", "2", "--segment-length", "0.4", "--width", "128", "--quality", "90",
                                   "--json", video])
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        let output = folder.appendingPathComponent("clip.preview.webp").path
        let line = try JSONSerialization.jsonObject(with: run.standardOutput) as? [String: Any]
        #expect(line?["output"] as? String == output)
        #expect(line?["frames"] as? Int == 8 && line?["milliseconds"] as? Int == 800)
        #expect((line?["width"] as? Int, line?["height"] as? Int) == (128, 16))
        let info = try AnimatedWebP.info(output)
        #expect(info.frames == 8 && info.loopsForever && info.milliseconds == Array(repeating: 100, count: 8), "\(info)")
        let numbers = try AnimatedWebP.frames(of: output, into: folder).map { ThumbnailTests.frameNumber(try DecodedPNG(path: $0)) }
        // Pieces on the keyframes (every 12 frames) nearest 0.4 and 1.6 s: frames at 0.48, 0.58 ...
        // 0.78 and 1.44 ... 1.74 s, 25 a second.
        #expect(numbers == [12, 14, 17, 19, 36, 38, 41, 43])
    }

    /// The frames are the video's as FFmpeg decodes them, upright (the display matrix applied, as
    /// the ffmpeg command line does) and at the preview's size: each at least 30 dB from ffmpeg's in
    /// luma. (In RGB these saturated bars at 80 pixels lose 20 dB to WebP's half-resolution colour
    /// alone: `cwebp -q 100` of ffmpeg's own frame is 22.8 dB from it.)
    @Test(.enabled(if: try Requirement.tool(ffmpeg) && Requirement.tool("/usr/bin/webpmux") && Requirement.tool("/usr/bin/python3"),
                   "ffmpeg, webpmux and Pillow are not installed (scripts/bootstrap test installs them)"),
          arguments: [("video/four-seconds.mp4", 80, 60), ("video/quadrants-orientation6.mp4", 48, 32)])
    func theFramesAreFFmpegSFramesAtThePreviewSize(fixture: String, width: Int, height: Int) throws {
        let (folder, video) = try Self.scratchCopy(fixture, as: "clip.mp4")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("p.webp").path
        // 25 fps videos, previewed at 5 (or 25) frames a second: every time falls on a frame's own.
        let fps = fixture.contains("four") ? 5 : 25
        let run = try ToolRun.run(["preview", "--from", "0", "--fps", "\(fps)", "--width", "\(width)", video, "-o", output])
        #expect(run.status == 0, "\(run.standardError)")
        let ours = try AnimatedWebP.frames(of: output, into: folder).map { try DecodedPNG(path: $0) }
        // Every frame as ffmpeg decodes it, made RGB before it is scaled, as ours are.
        let reference = try ChildProcess.run(Self.ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-i", video,
                                                           "-vf", "format=rgb24,scale=\(width):\(height):flags=lanczos", "-fps_mode", "passthrough",
                                                           "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).standardOutput
        let frameBytes = width * height * 3
        // libwebp stores a frame equal to the one before as a longer duration of that one (and
        // frames all equal as a still picture): each frame of ours stands at the time its
        // durations before it add up to.
        let length = reference.count / frameBytes * 40
        let listed = try AnimatedWebP.info(output).milliseconds
        let durations = listed.isEmpty ? [length] : listed
        #expect(durations.reduce(0, +) == length && ours.count == durations.count, "\(durations), \(ours.count) frames")
        var start = 0
        for (frame, milliseconds) in zip(ours, durations) {
            #expect((frame.width, frame.height) == (width, height))
            let at = start / 40 * frameBytes
            start += milliseconds
            guard at + frameBytes <= reference.count else { break }
            let psnr = lumaPeakSignalToNoise(frame.bytes, Array(reference[at..<(at + frameBytes)]))
            #expect(psnr >= 30, "the frame at \(start - milliseconds) ms: \(psnr) dB")
        }
    }

    /// --format mp4 (or -o NAME.mp4): H.264 in a fragmented MP4 whose index comes first, as ffprobe
    /// reads it: 8 frames of 100 ms, BT.709 4:2:0, the counter's frames at their times as ffmpeg
    /// decodes them.
    @Test(.enabled(if: try Requirement.tool(ffmpeg) && Requirement.tool("/usr/bin/ffprobe"), "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func anMP4PreviewIsH264ThatPlaysAsItArrives() throws {
        let (folder, video) = try Self.scratchCopy("video/counter.mp4", as: "clip.mp4")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["preview", "--segments", "2", "--segment-length", "0.4", "--width", "128", "--quality", "90",
                                   "--format", "mp4", "--json", video])
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        let output = folder.appendingPathComponent("clip.preview.mp4").path
        let line = try JSONSerialization.jsonObject(with: run.standardOutput) as? [String: Any]
        #expect(line?["output"] as? String == output && line?["format"] as? String == "mp4")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        // ftyp, then moov: a player has the index before the first sample.
        #expect(bytes.count > 40 && Array(bytes[4..<8]) == Array("ftyp".utf8) && Array(bytes[32..<36]) == Array("moov".utf8))
        let probe = String(decoding: try ChildProcess.run("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-show_entries",
                                                                               "stream=codec_name,width,height,pix_fmt,color_space,nb_read_frames:format=duration",
                                                                               "-of", "default=noprint_wrappers=1", output]).standardOutput, as: UTF8.self)
        for expected in ["codec_name=h264", "width=128", "height=16", "pix_fmt=yuv420p", "color_space=bt709", "nb_read_frames=8", "duration=0.800000"] {
            #expect(probe.contains(expected), "\(probe)")
        }
        // Every frame stored at the time it is shown (no B-frames): the first at 0 in every player.
        let packets = String(decoding: try ChildProcess.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "packet=pts_time,dts_time",
                                                                                 "-of", "csv=p=0", output]).standardOutput, as: UTF8.self)
        #expect(packets.split(separator: "\n").prefix(3) == ["0.000000,0.000000", "0.100000,0.100000", "0.200000,0.200000"], "\(packets)")
        let decoded = try ChildProcess.run(Self.ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-i", output,
                                                         "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).standardOutput
        let frameBytes = 128 * 16 * 3
        let numbers = (0..<(decoded.count / frameBytes)).map { index in
            let frame = [UInt8](decoded[(index * frameBytes)..<((index + 1) * frameBytes)])
            return (0..<8).reduce(0) { number, bit in frame[(8 * 128 + bit * 16 + 8) * 3] > 128 ? number | (1 << bit) : number }
        }
        #expect(numbers == [12, 14, 17, 19, 36, 38, 41, 43])
    }

    /// Chromium opens the preview as an animation of the frames written, looping forever; and the
    /// MP4 as a video of their size and length.
    @Test(.enabled(if: try Requirement.tool(chromium), "Chromium is not installed (scripts/bootstrap test installs it)"))
    func chromiumPlaysThePreview() throws {
        let (folder, video) = try Self.scratchCopy("video/counter.mp4", as: "clip.mp4")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["preview", "--segments", "2", "--segment-length", "0.4", "--width", "128", video])
        #expect(run.status == 0, "\(run.standardError)")
        let preview = try Data(contentsOf: folder.appendingPathComponent("clip.preview.webp"))
        // The bytes in the page: Chromium fetches no file: URL from a script.
        let page = """
            <!doctype html><html><body><img id="preview" src="data:image/webp;base64,\(preview.base64EncodedString())"><script>
            const image = document.getElementById('preview');
            image.onload = async () => {
              const data = Uint8Array.from(atob(image.src.split(',')[1]), c => c.charCodeAt(0));
              const decoder = new ImageDecoder({data, type: 'image/webp'});
              await decoder.tracks.ready;
              await decoder.completed;
              const track = decoder.tracks.selectedTrack;
              document.body.dataset.played = [image.naturalWidth, image.naturalHeight, track.animated, track.frameCount, track.repetitionCount].join(' ');
            };
            image.onerror = () => { document.body.dataset.played = 'error'; };
            </script></body></html>
            """
        let pagePath = folder.appendingPathComponent("page.html")
        try page.write(to: pagePath, atomically: true, encoding: .utf8)
        let dom = try Self.settledDOM(pagePath)
        #expect(dom.contains("data-played=\"128 16 true 8 Infinity\""), "\(dom.prefix(300))")

        // The MP4 in a <video>: its size and length as Chromium reads them (a reordering delay
        // made it 0.9 s; seeking frame by frame is not deterministic under virtual time).
        let mp4Run = try ToolRun.run(["preview", "--segments", "2", "--segment-length", "0.4", "--width", "128", "--format", "mp4", video])
        #expect(mp4Run.status == 0, "\(mp4Run.standardError)")
        let mp4 = try Data(contentsOf: folder.appendingPathComponent("clip.preview.mp4"))
        let videoPage = """
            <!doctype html><html><body><video id="preview" muted playsinline src="data:video/mp4;base64,\(mp4.base64EncodedString())"></video><script>
            const video = document.getElementById('preview');
            video.onloadedmetadata = () => { document.body.dataset.played = [video.videoWidth, video.videoHeight, video.duration].join(' '); };
            video.onerror = () => { document.body.dataset.played = 'error'; };
            </script></body></html>
            """
        try videoPage.write(to: pagePath, atomically: true, encoding: .utf8)
        let videoDOM = try Self.settledDOM(pagePath)
        #expect(videoDOM.contains("data-played=\"128 16 0.8\""), "\(videoDOM.prefix(300))")
    }

    /// The page's DOM once its script has said what it played. The decoders answer on threads of
    /// their own, which the virtual time budget does not wait for: under load a run may dump the
    /// page first (seen once in 40 runs), so a page that has not answered is loaded again, at most
    /// three times; a wrong answer is never retried.
    static func settledDOM(_ page: URL) throws -> String {
        var dom = ""
        for _ in 0..<3 {
            dom = try StoryboardTests.chromium(["--dump-dom", page.absoluteString]).output
            if dom.contains("data-played=") { break }
        }
        return dom
    }

    /// Not a video, a still picture, a preview past --max-bytes: one line each, no file, and the
    /// other videos of the batch get theirs.
    @Test func eachBadInputIsOneLineAndTheOthersGetTheirs() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (fixture, name) in [("video/counter.mp4", "a.mp4"), ("video/not-media.mp4", "b.mp4"), ("video/cover.jpg", "c.mp4"), ("video/counter.mkv", "d.mkv")] {
            try FileManager.default.copyItem(atPath: Fixture.path(fixture), toPath: folder.appendingPathComponent(name).path)
        }
        let run = try ToolRun.run(["preview", "--jobs", "2", "--width", "64", "."], in: folder)
        #expect(run.status == 1)
        let failures = run.errorLines.filter { !$0.hasPrefix("mediatool: failed:") && !$0.hasPrefix("mediatool: summary:") }
        #expect(failures.count == 2, "\(run.standardError)")
        #expect(failures.contains { $0.hasPrefix("mediatool: ./b.mp4: ") })
        #expect(failures.contains("mediatool: ./c.mp4: a picture, not a video: a preview is made of a video's frames (thumbnail makes pictures of pictures)"))
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".preview.") }.sorted()
        #expect(written == ["a.preview.webp", "d.preview.webp"])

        let tooSmall = try ToolRun.run(["preview", "--width", "64", "--max-bytes", "100", "a.mp4", "-o", "small.webp"], in: folder)
        #expect(tooSmall.status == 1)
        #expect(tooSmall.errorLines.count == 1 && tooSmall.errorLines[0].hasPrefix("mediatool: a.mp4: the preview takes ")
                && tooSmall.errorLines[0].hasSuffix("bytes even at quality 15, over the limit of 100 (--max-bytes): ask for fewer or smaller frames"),
                "\(tooSmall.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("small.webp").path))
    }

    /// An existing preview is kept without --overwrite; usage errors say what to give instead.
    @Test(arguments: [
        (["--from", "1", "--segments", "3", "a.mp4"], "mediatool: --from/--to give one stretch; --segments and --segment-length spread pieces over the whole video: give one or the other. (see 'mediatool preview --help')"),
        (["--fps", "0.00001", "a.mp4"], "mediatool: --fps takes frames a second from 0.1 (a frame every 10 s) up to 50 for WebP and 120 for MP4, not 1e-05. (see 'mediatool preview --help')"),
        (["--fps", "60", "a.mp4"], "mediatool: --fps 60.0 would show each frame for less than 20 ms, which browsers show for 100 ms: at most 50 for WebP (--format mp4 takes up to 120). (see 'mediatool preview --help')"),
        (["--from", "5", "--to", "3", "a.mp4"], "mediatool: --to must come after --from: 5 to 3 holds no frames. (see 'mediatool preview --help')"),
        (["--name", "{stem}.{size}.webp", "a.mp4"], "mediatool: --name's {size} is thumbnail's: a preview has one size. (see 'mediatool preview --help')"),
        (["--from", "x", "a.mp4"], "mediatool: The value 'x' is invalid for '--from <time>': it takes seconds (35.2), a timestamp (1:02.5) or a percentage (10%) (see 'mediatool preview --help')"),
        (["a.mp4", "-o", "a.gif"], "mediatool: '.gif' is not a format mediatool preview writes: webp and mp4. (see 'mediatool preview --help')"),
        (["--format", "webp", "a.mp4", "-o", "a.mp4"], "mediatool: --format webp disagrees with 'a.mp4', which names mp4. (see 'mediatool preview --help')"),
        (["-"], "mediatool: A preview seeks through its video: give a file, not standard input. (see 'mediatool preview --help')"),
    ])
    func usageErrorsSayWhatToGive(arguments: [String], line: String) throws {
        let run = try ToolRun.run(["preview"] + arguments)
        #expect(run.status == 64)
        #expect(run.errorLines == [line])
    }

    /// A file cut short of the duration its container states: the preview ends at its last frame
    /// (not on seconds of a still of it), and a warning says so.
    @Test func aVideoCutShortEndsThePreviewAtItsLastFrame() throws {
        let (folder, video) = try Self.scratchCopy("video/truncated.mkv", as: "cut.mkv")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["preview", "--from", "0", "--json", video])
        #expect(run.status == 0, "\(run.standardError)")
        let line = try JSONSerialization.jsonObject(with: run.standardOutput) as? [String: Any]
        #expect(line?["frames"] as? Int == 9 && line?["milliseconds"] as? Int == 900)
        #expect(run.errorLines == ["mediatool: warning: \(video): the video ends before 15 of the frames' times: the preview ends at its last frame, 900 ms long"])
    }

    @Test func anExistingPreviewIsKeptWithoutOverwrite() throws {
        let (folder, video) = try Self.scratchCopy("video/counter.mp4", as: "clip.mp4")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("clip.preview.webp")
        try Data("keep me".utf8).write(to: output)
        let run = try ToolRun.run(["preview", "--width", "32", video])
        #expect(run.status == 1 && run.errorLines.first?.contains("exists") == true, "\(run.standardError)")
        #expect(try Data(contentsOf: output) == Data("keep me".utf8))
        #expect(try ToolRun.run(["preview", "--width", "32", "--overwrite", video]).status == 0)
        #expect(try Data(contentsOf: output).prefix(4) == Data("RIFF".utf8))
    }
}
