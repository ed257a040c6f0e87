import Foundation
import Testing
import TestSupport

/// `transcode`: the MP4 every browser plays, checked with ffprobe and ffmpeg (the references),
/// never with mediatool's own reading of what it wrote.
@Suite struct TranscodeTests {
    static let ffmpeg = "/usr/bin/ffmpeg"
    static let ffprobe = "/usr/bin/ffprobe"

    /// What ffprobe says of the streams and the file, `key=value` a line.
    static func probe(_ path: String, _ entries: String) throws -> [String] {
        let run = try ChildProcess.run(ffprobe, ["-v", "error", "-show_entries", entries, "-of", "default=noprint_wrappers=1", path], deadline: 60)
        #expect(run.status == 0)
        return String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The video's frames as ffmpeg decodes them (RGB, each at its own time) and their times.
    static func frames(_ path: String, width: Int, height: Int) throws -> (pictures: [[UInt8]], seconds: [Double]) {
        let decoded = try ChildProcess.run(ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-i", path, "-map", "0:v:0",
                                                    "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], deadline: 60)
        #expect(decoded.status == 0)
        let size = width * height * 3
        let pictures = (0..<(decoded.standardOutput.count / size)).map { [UInt8](decoded.standardOutput[($0 * size)..<(($0 + 1) * size)]) }
        let listed = try ChildProcess.run(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time",
                                                    "-of", "default=noprint_wrappers=1:nokey=1", path], deadline: 60)
        let times = String(decoding: listed.standardOutput, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }
        return (pictures, times)
    }

    /// The sound as ffmpeg decodes it: mono, 48 kHz, 16-bit.
    static func sound(_ path: String) throws -> [Int16] {
        let decoded = try ChildProcess.run(ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-i", path, "-map", "0:a:0",
                                                    "-ac", "1", "-ar", "48000", "-f", "s16le", "-"], deadline: 60)
        #expect(decoded.status == 0)
        return decoded.standardOutput.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    static func transcoded(_ fixture: String, _ options: [String] = []) throws -> (folder: URL, output: String, run: ToolRun) {
        let folder = try Fixture.scratchFolder()
        let output = folder.appendingPathComponent("web.mp4").path
        let run = try ToolRun.run(["transcode", "--json"] + options + [Fixture.path(fixture), "-o", output], deadline: 300)
        return (folder, output, run)
    }

    static var hasReferences: Bool { (try? Requirement.tool(ffmpeg) && Requirement.tool(ffprobe)) ?? false }

    /// A clip stored on its side with PCM sound: H.264 High 4:2:0 tagged BT.709 and AAC-LC in an
    /// MP4 whose `moov` comes before its `mdat`, upright pixels (the quadrants' colours where they
    /// belong) and no display matrix left; the frame that flashes white and the sound's burst,
    /// both at 1.00 s in the source, within a frame of each other and of 1.00 s. In a worker and
    /// in this process alike.
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"), arguments: ["on", "off"])
    func aRotatedClipWithSoundBecomesUprightH264AndAACInSync(sandbox: String) throws {
        let (folder, output, run) = try Self.transcoded("video/sync.mov", ["--sandbox", sandbox])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        // A progress event (in a worker at least its first; in this process one a second) before
        // the video's own line, which comes last.
        let lines = String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let events = lines.dropLast().compactMap { $0 }.filter { $0["status"] as? String == "progress" }
        #expect(lines.count >= 2 && events.count == lines.count - 1, "\(lines)")
        for event in events {
            #expect(event["input"] as? String == Fixture.path("video/sync.mov") && (event["frames"] as? Int ?? 0) >= 1, "\(event)")
            #expect(abs((event["duration"] as? Double ?? 0) - 1.4) < 0.05 && (0...99).contains(event["percent"] as? Int ?? -1), "\(event)")
        }
        let line = lines.last ?? nil
        #expect(line?["status"] as? String == "ok" && line?["cut_short"] as? Bool == false)
        #expect(line?["width"] as? Int == 96 && line?["height"] as? Int == 64 && line?["sound"] as? String == "aac")
        #expect(line?["sound_from"] as? String == "pcm_s16le" && line?["fragmented"] as? Bool == false)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        let moov = bytes.indices.dropLast(4).first { Array(bytes[$0..<($0 + 4)]) == Array("moov".utf8) }
        let mdat = bytes.indices.dropLast(4).first { Array(bytes[$0..<($0 + 4)]) == Array("mdat".utf8) }
        #expect(moov != nil && mdat != nil && moov! < mdat!)
        let streams = try Self.probe(output, "stream=codec_name,profile,width,height,pix_fmt,color_space,color_transfer,color_primaries,sample_rate,channels:stream_side_data")
        for expected in ["codec_name=h264", "profile=High", "width=96", "height=64", "pix_fmt=yuv420p", "color_space=bt709",
                         "color_transfer=bt709", "color_primaries=bt709", "codec_name=aac", "profile=LC", "sample_rate=48000", "channels=2"] {
            #expect(streams.contains(expected), "\(expected) in \(streams)")
        }
        #expect(!streams.contains { $0.contains("rotation") || $0.contains("Display Matrix") }, "\(streams)")
        let (pictures, seconds) = try Self.frames(output, width: 96, height: 64)
        #expect(pictures.count == 35 && seconds.count == 35)
        // Red | green over blue | white, as the upright quadrants are.
        let first = pictures[0]
        func pixel(_ x: Int, _ y: Int) -> [Int] { (0..<3).map { Int(first[(y * 96 + x) * 3 + $0]) } }
        for (x, y, colour) in [(10, 10, [255, 0, 0]), (86, 10, [0, 255, 0]), (10, 54, [0, 0, 255]), (86, 54, [255, 255, 255])] {
            #expect(zip(pixel(x, y), colour).allSatisfy { abs($0 - $1) <= 24 }, "(\(x), \(y)): \(pixel(x, y))")
        }
        let flash = pictures.firstIndex { frame in frame.reduce(0) { $0 + Int($1) } > frame.count * 240 }
        #expect(flash.map { abs(seconds[$0] - 1.0) < 0.001 } == true, "flash at \(flash.map { seconds[$0] } ?? -1)")
        let sound = try Self.sound(output)
        let burst = sound.firstIndex { abs(Int($0)) > 3000 }.map { Double($0) / 48000 }
        #expect(burst.map { abs($0 - 1.0) < 0.04 } == true, "burst at \(burst ?? -1)")
        #expect(abs(Double(sound.count) / 48000 - 1.4) < 0.03, "\(Double(sound.count) / 48000) s of sound")
    }

    /// An upload cut short (its `moov` first, its media data stopped at 90 %, 25 whole frames
    /// of 35): the frames that were whole are made, and one warning says where the video ends
    /// against the length its file states; the result line says `cut_short`.
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func aFileCutShortGivesWhatWasDecodableAndSaysWhereItEnds() throws {
        let (folder, output, run) = try Self.transcoded("video/sync-cut-short.mov")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0, "\(run.standardError)")
        let name = Fixture.path("video/sync-cut-short.mov")
        #expect(run.errorLines.contains("mediatool: warning: \(name): the video ends at 1.0 s of the 1.4 s its file states: "
                                        + "the file is cut short or damaged there, and the web video is what could be decoded"),
                "\(run.standardError)")
        let last = String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        let line = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
        #expect(line?["cut_short"] as? Bool == true && line?["frames"] as? Int == 25, "\(last)")
        #expect(try Self.frames(output, width: 64, height: 96).pictures.count == 25)
        // Matroska states the file's length, not the stream's: without sound, that is the video's.
        let (mkvFolder, _, mkv) = try Self.transcoded("video/truncated.mkv")
        defer { try? FileManager.default.removeItem(at: mkvFolder) }
        let mkvLast = String(decoding: mkv.standardOutput, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        #expect(mkv.status == 0 && mkvLast.contains("\"cut_short\":true"), "\(mkvLast) \(mkv.standardError)")
    }

    /// A Matroska file with sound cut in half: its sound ends with its pictures, so the file's
    /// stated length is theirs, and the cut is said; a video track that ends before a sound that
    /// goes on is no cut, nor one whose sound ends 0.6 s after it (the file's length is the sound's).
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func aMatroskaFileWithSoundCutShortIsSaidToBe() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = try Self.made("whole.mkv", in: folder, ["-f", "lavfi", "-i", "testsrc2=s=64x48:r=10:d=8", "-f", "lavfi", "-i",
                                                             "sine=duration=8", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let half = folder.appendingPathComponent("half.mkv").path
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: half))
        let shortVideo = try Self.made("short-video.mkv", in: folder, ["-f", "lavfi", "-i", "testsrc2=s=64x48:r=10:d=2", "-f", "lavfi", "-i",
                                                                        "sine=duration=8", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        let longerSound = try Self.made("longer-sound.mkv", in: folder, ["-f", "lavfi", "-i", "testsrc2=s=64x48:r=10:d=4", "-f", "lavfi", "-i",
                                                                          "sine=duration=4.6", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        for (input, cut) in [(half, true), (whole, false), (shortVideo, false), (longerSound, false)] {
            let run = try ToolRun.run(["transcode", "--json", input, "-o", input + ".web.mp4"], deadline: 120)
            let last = String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
            #expect(run.status == 0 && last.contains("\"cut_short\":\(cut)"), "\(input): \(last) \(run.standardError)")
            #expect(run.standardError.contains("the file is cut short") == cut, "\(input): \(run.standardError)")
        }
    }

    /// 7.1 sound whose only tone is in its side left channel (the 7th): mixed down by what each
    /// channel is in the layout, the tone is in the left channel at -3 dB less the mix's scale,
    /// and the right one is silent (by the channels' places, 5.1's, the tone was lost).
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func surroundChannelsAreMixedByWhatTheyAreInTheLayout() throws {
        let (folder, output, run) = try Self.transcoded("video/surround-7.1-side-left.mkv")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0, "\(run.standardError)")
        let decoded = try ChildProcess.run(Self.ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-i", output, "-map", "0:a:0",
                                                         "-f", "s16le", "-"], deadline: 60)
        let samples = decoded.standardOutput.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        func peak(_ channel: Int) -> Int { stride(from: channel, to: samples.count, by: 2).map { abs(Int(samples[$0])) }.max() ?? 0 }
        // 0.5 of full scale x 0.7071 (a side) / 3.12 (the left's weights: front, centre, back, side).
        #expect(samples.count > 4000 && peak(0) > 2500 && peak(0) < 5000 && peak(1) < 200, "left \(peak(0)), right \(peak(1))")
    }

    /// x264's memory is counted against --max-memory beside what decoding holds: refused in one
    /// line before anything is encoded where they do not fit together, made where they do.
    @Test func theEncodersMemoryIsCountedAgainstTheLimit() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("web.mp4").path
        let refused = try ToolRun.run(["transcode", "--max-memory", "24M", Fixture.path("video/sync.mov"), "-o", output], deadline: 120)
        #expect(refused.status == 1 && refused.errorLines.count == 1 && !FileManager.default.fileExists(atPath: output))
        #expect(refused.errorLines.first?.contains("encoding 96x64 at --preset veryfast needs 17 MiB of memory beside the") == true,
                "\(refused.standardError)")
        let made = try ToolRun.run(["transcode", "--max-memory", "32M", Fixture.path("video/sync.mov"), "-o", output], deadline: 120)
        #expect(made.status == 0 && FileManager.default.fileExists(atPath: output), "\(made.standardError)")
    }

    /// 120 frames a second in a millisecond time base (frames 8 and 9 ms apart) are all kept,
    /// where a comparison without a tolerance kept 64 a second; two TS recordings joined, whose
    /// second clock starts again, give the first's frames and a warning, not silence.
    @Test(arguments: [("video/fast-120fps.mkv", 60, nil), ("video/joined-clock-restarts.ts", 10, "10 frames timed at or before frames shown ahead")])
    func framesAreKeptAtTheirTimesAndThosePassedOverAreSaid(fixture: String, frames: Int, warning: String?) throws {
        let (folder, _, run) = try Self.transcoded(fixture)
        defer { try? FileManager.default.removeItem(at: folder) }
        let last = String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        let line = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
        #expect(run.status == 0 && line?["frames"] as? Int == frames, "\(last) \(run.standardError)")
        if let warning {
            #expect(run.errorLines.count == 1 && run.errorLines[0].contains(warning), "\(run.standardError)")
        } else {
            #expect(run.errorLines.isEmpty, "\(run.standardError)")
        }
    }

    /// Sound that starts 0.2 s after the first frame, mono at 37.8 kHz (which AAC does not code):
    /// resampled to 48 kHz, its burst where the source has it (1.20 s), and cut with the video.
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func soundThatStartsLateStaysWhereItWas() throws {
        let (folder, output, run) = try Self.transcoded("video/sync-late-sound.mov")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        let streams = try Self.probe(output, "stream=codec_name,sample_rate,channels")
        #expect(streams.contains("sample_rate=48000") && streams.contains("channels=1"), "\(streams)")
        let sound = try Self.sound(output)
        let burst = sound.firstIndex { abs(Int($0)) > 3000 }.map { Double($0) / 48000 }
        #expect(burst.map { abs($0 - 1.2) < 0.04 } == true, "burst at \(burst ?? -1)")
        #expect(sound.prefix(Int(0.19 * 48000)).allSatisfy { abs(Int($0)) < 100 }, "silence before the sound starts")
        #expect(abs(Double(sound.count) / 48000 - 1.4) < 0.03, "\(Double(sound.count) / 48000) s of sound")
    }

    /// A variable frame rate stays variable: every frame at the time the source shows it.
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func aVariableFrameRateKeepsEveryFramesTime() throws {
        let (folder, output, run) = try Self.transcoded("video/counter-vfr.mp4")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0, "\(run.standardError)")
        let source = try Self.frames(Fixture.path("video/counter-vfr.mp4"), width: 128, height: 16)
        let made = try Self.frames(output, width: 128, height: 16)
        #expect(made.seconds.count == 60 && made.seconds.count == source.seconds.count)
        for (mine, theirs) in zip(made.seconds, source.seconds) { #expect(abs(mine - theirs) < 0.0005, "\(mine) for \(theirs)") }
        // Each frame shows its own number, as the source's does.
        func number(_ frame: [UInt8]) -> Int { (0..<8).reduce(0) { frame[(8 * 128 + $1 * 16 + 8) * 3] > 128 ? $0 | (1 << $1) : $0 } }
        #expect(made.pictures.map(number) == Array(0..<60))
    }

    /// An HDR video (HLG, PQ, Dolby Vision 8.4 and 8.1) is tone mapped as a thumbnail is: the
    /// first frame within 30 dB of the SDR picture it was made from.
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"),
          arguments: ["hdr/photo-hlg.mp4", "hdr/photo-pq.mp4", "hdr/dolby-vision-8.4.mp4", "hdr/dolby-vision-8.mp4"])
    func hdrIsToneMappedAsThumbnailsAre(fixture: String) throws {
        let (folder, output, run) = try Self.transcoded(fixture)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0 && run.errorLines == [], "\(run.standardError)")
        let sdr = try DecodedPNG(path: Fixture.path("hdr/photo-sdr.png"))
        let made = try Self.frames(output, width: sdr.width, height: sdr.height)
        #expect(made.pictures.count == 1)
        let psnr = peakSignalToNoise(made.pictures.first ?? [], sdr.bytes)
        #expect(psnr >= 30, "\(psnr) dB")
    }

    /// A file whose `moov` is at its end (ffmpeg's own MP4s) gives one whose `moov` is first; a
    /// video over --height is scaled down to it, never up, each side even.
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func theIndexComesFirstAndTheHeightIsALimit() throws {
        let source = try [UInt8](Fixture.data("video/four-seconds.mp4"))
        func position(_ type: String, in bytes: [UInt8]) -> Int? { bytes.indices.dropLast(4).first { Array(bytes[$0..<($0 + 4)]) == Array(type.utf8) } }
        #expect(position("moov", in: source)! > position("mdat", in: source)!)
        let (folder, output, run) = try Self.transcoded("video/four-seconds.mp4", ["--height", "75"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(run.status == 0, "\(run.standardError)")
        let made = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(position("moov", in: made)! < position("mdat", in: made)!)
        // 160x120 fitted in 75 lines: 100x75, the odd side one less.
        let streams = try Self.probe(output, "stream=width,height:format=duration")
        #expect(streams.contains("width=100") && streams.contains("height=74") && streams.contains("duration=4.000000"), "\(streams)")
        let larger = try ToolRun.run(["transcode", "--height", "500", Fixture.path("video/four-seconds.mp4"), "-o", output, "--overwrite"], deadline: 300)
        #expect(larger.status == 0)
        #expect(try Self.probe(output, "stream=width,height") == ["width=160", "height=120"])
    }

    /// To standard output, which cannot be sought back in: a fragmented MP4, its `moov` first.
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func toAPipeItIsFragmentedWithItsIndexFirst() throws {
        let run = try ToolRun.run(["transcode", Fixture.path("video/sync.mov"), "-o", "-"], deadline: 300)
        #expect(run.status == 0, "\(run.standardError)")
        let bytes = [UInt8](run.standardOutput)
        #expect(bytes.count > 40 && Array(bytes[4..<8]) == Array("ftyp".utf8))
        let moov = bytes.indices.dropLast(4).first { Array(bytes[$0..<($0 + 4)]) == Array("moov".utf8) }
        let moof = bytes.indices.dropLast(4).first { Array(bytes[$0..<($0 + 4)]) == Array("moof".utf8) }
        #expect(moov != nil && moof != nil && moov! < moof!)
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("piped.mp4").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try Self.frames(path, width: 96, height: 64).pictures.count == 35)
    }

    /// A picture, a sound without video and a file that is no media are refused in one line each,
    /// and nothing is written.
    @Test(arguments: [("pictures/orientation6.jpg", "a picture, not a video"), ("video/audio-only.m4a", "no video stream"),
                      ("video/not-media.mp4", "not a media file FFmpeg can open")])
    func whatIsNoVideoIsRefused(fixture: String, said: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("web.mp4").path
        let run = try ToolRun.run(["transcode", Fixture.path(fixture), "-o", output], deadline: 120)
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1 && run.errorLines.first?.contains(Fixture.path(fixture)) == true
                && run.errorLines.first?.contains(said) == true, "\(run.errorLines)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// Standard output opened read-write on a file of the user's (`1<>file`) is written from where
    /// it stands, as a pipe is, never rewritten from byte 0 (the eighth red team's header line was).
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func standardOutputOnAFileIsWrittenFromWhereItStands() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.mp4").path
        try Data().write(to: URL(fileURLWithPath: path))
        let run = try ChildProcess.run("/bin/sh", ["-c", "{ printf 'HEADER\\n'; exec \"$0\" transcode \"$1\" -o -; } 1<>\"$2\"",
                                                   ToolRun.executable.path, Fixture.path("video/sync.mov"), path], deadline: 300)
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count > 40 && Array(bytes[0..<7]) == Array("HEADER\n".utf8) && Array(bytes[11..<15]) == Array("ftyp".utf8))
    }

    /// Made with ffmpeg in `folder`: `name` from the lavfi sources and options given.
    static func made(_ name: String, in folder: URL, _ arguments: [String]) throws -> String {
        let path = folder.appendingPathComponent(name).path
        let run = try ChildProcess.run(ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin"] + arguments + [path], deadline: 120)
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        return path
    }

    /// Sound that starts half an hour after a 2 s video: the video, silent, in its own time (it
    /// was a gigabyte of silence made at once, refused as over the memory limit).
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func soundThatStartsAfterTheVideoEndsCostsNothing() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let late = try Self.made("late.mkv", in: folder, ["-f", "lavfi", "-i", "testsrc2=s=64x48:r=25:d=2", "-itsoffset", "1800", "-f", "lavfi",
                                                           "-i", "sine=frequency=440:duration=2", "-c:v", "libx264", "-c:a", "aac"])
        let output = folder.appendingPathComponent("web.mp4").path
        let run = try ToolRun.run(["transcode", "--max-memory", "256M", late, "-o", output], deadline: 120)
        #expect(run.status == 0, "\(run.standardError)")
        let sound = try Self.sound(output)
        #expect(abs(Double(sound.count) / 48000 - 2) < 0.05 && sound.allSatisfy { $0 == 0 }, "\(Double(sound.count) / 48000) s")
    }

    /// A thousand frames a second of a still picture in a few bytes each: at most 120 are kept a
    /// second (each costs the encoder as much as any); a picture wider than H.264's 8192 is fitted.
    @Test(.enabled(if: hasReferences, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func framesAreAtMost120ASecondAndSidesAtMost8192() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dense = try Self.made("dense.mp4", in: folder, ["-f", "lavfi", "-i", "color=c=gray:s=64x48:r=1000:d=2", "-c:v", "libx264",
                                                             "-preset", "ultrafast", "-bf", "0"])
        let output = folder.appendingPathComponent("web.mp4").path
        #expect(try ToolRun.run(["transcode", dense, "-o", output], deadline: 300).status == 0)
        let frames = try Self.frames(output, width: 64, height: 48)
        #expect(frames.pictures.count <= 241 && frames.pictures.count >= 200, "\(frames.pictures.count) frames")
        let wide = try Self.made("wide.mkv", in: folder, ["-f", "lavfi", "-i", "color=c=gray:s=8200x16:r=5:d=0.4", "-c:v", "ffv1"])
        let run = try ToolRun.run(["transcode", "--overwrite", wide, "-o", output], deadline: 300)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(try Self.probe(output, "stream=width") == ["width=8192"])
    }
}
