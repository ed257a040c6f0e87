import Foundation
import Testing
import TestSupport

/// A 3.5 KB MP4 whose video track claims 40 million samples had FFmpeg build a
/// 1 GiB index (probe said "ok", with 40000000 frames; thumbnail and preview took 1-1.5 GiB past
/// --max-memory); so did a fragment's `trun` claiming 30 million samples, and a MOV whose PCM
/// sound claimed 2^31-1 samples a chunk in `stsc`. A file holds its samples, a byte or more each:
/// boxes claiming more are refused before FFmpeg reads them, and what is left of the index is
/// counted against --max-memory.
@Suite struct SampleTableTests {
    /// The counter clip with its video track's stsz claiming `count` samples of 100 bytes.
    static func decoy(claiming count: UInt32, in folder: URL) throws -> String {
        var bytes = [UInt8](try Fixture.data("video/counter.mp4"))
        let stsz = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("stsz".utf8) })
        // After the type: version and flags (4), sample size (4), sample count (4).
        for (offset, value) in [(stsz + 8, UInt32(100)), (stsz + 12, count)] {
            for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
        }
        let path = folder.appendingPathComponent("claims.mp4").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `fixture` with the 4-byte big-endian fields at `offsets` after the first box of `type`
    /// set to their values, and `padding` bytes of a `free` box after it, written as `name`.
    static func decoy(of fixture: String, box type: String, setting fields: [(offset: Int, value: UInt32)],
                      padding: Int = 0, as name: String, in folder: URL) throws -> String {
        var bytes = [UInt8](try Fixture.data(fixture))
        let box = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array(type.utf8) })
        for (offset, value) in fields {
            for index in 0..<4 { bytes[box + offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
        }
        if padding > 0 {
            let length = UInt32(padding + 8)
            bytes += (0..<4).map { UInt8(truncatingIfNeeded: length >> (24 - 8 * UInt32($0))) } + Array("free".utf8)
            bytes += [UInt8](repeating: 0, count: padding)
        }
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The fragmented counter whose first `trun` claims 30 million samples with no per-sample
    /// fields (flags: a data offset and the first sample's flags only), as the red team's 4.5 KB file.
    static func fragmentDecoy(in folder: URL) throws -> String {
        // After the type: version and flags (4), sample count (4).
        try decoy(of: "video/counter-fragmented.mp4", box: "trun", setting: [(4, 0x0000_0005), (8, 30_000_000)],
                  as: "fragments.mp4", in: folder)
    }

    /// The counter with PCM sound whose every `stsc` run gives a chunk 2^31-1 samples.
    static func soundChunkDecoy(in folder: URL) throws -> String {
        var bytes = [UInt8](try Fixture.data("video/counter-pcm.mov"))
        // The sound track's stsc is the last: its runs (first chunk, samples a chunk, description).
        let stsc = try #require((0..<(bytes.count - 4)).last { Array(bytes[$0..<($0 + 4)]) == Array("stsc".utf8) })
        let runs = Int(bytes[stsc + 8]) << 24 | Int(bytes[stsc + 9]) << 16 | Int(bytes[stsc + 10]) << 8 | Int(bytes[stsc + 11])
        #expect(runs == 2)
        for run in 0..<runs {
            let field = stsc + 12 + run * 12 + 4
            bytes[field..<(field + 4)] = [0x7f, 0xff, 0xff, 0xff]
        }
        let path = folder.appendingPathComponent("chunks.mov").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [["probe"], ["thumbnail", "--max-memory", "256M"], ["ingest"]])
    func aFragmentClaimingMoreSamplesThanBytesIsRefused(command: [String]) throws {
        try expectRefused(command: command, decoy: Self.fragmentDecoy, saying: "its tracks claim 30000048 samples, more than the file's")
    }

    /// A run counts only after a fragment's header since the last fragment, as FFmpeg reads it;
    /// only a real (top-level) `moof` starts a fragment. Here the fragment decoy's `tfdt`, between
    /// its header and its run, is a `free` box FFmpeg skips, holding a box that reads "moof": the
    /// run's 30 million samples still count.
    @Test func wordsReadingAsAFragmentHideNoRun() throws {
        let made: (URL) throws -> String = { folder in
            let path = try Self.fragmentDecoy(in: folder)
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let tfdt = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("tfdt".utf8) })
            let size = Int(bytes[tfdt - 4]) << 24 | Int(bytes[tfdt - 3]) << 16 | Int(bytes[tfdt - 2]) << 8 | Int(bytes[tfdt - 1])
            #expect(size >= 16)
            bytes[tfdt..<(tfdt + 4)] = ArraySlice("free".utf8)
            bytes[(tfdt + 4)..<(tfdt + 12)] = [0, 0, 0, 8] + ArraySlice("moof".utf8)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        try expectRefused(command: ["probe"], decoy: made, saying: "its tracks claim 30000048 samples, more than the file's")
    }

    @Test(arguments: [["probe"], ["thumbnail", "-j", "2", "--max-memory", "600M"], ["ingest"]])
    func soundChunksClaimingMoreSamplesThanBytesAreRefused(command: [String]) throws {
        try expectRefused(command: command, decoy: Self.soundChunkDecoy, saying: "samples, more than the file's")
    }

    /// A table the file can hold (a `free` box of 3 MB beside it) whose index is over
    /// --max-memory: refused as over the limit, before FFmpeg builds it.
    @Test(arguments: [["probe"], ["thumbnail"]])
    func anIndexOverTheMemoryLimitIsRefused(command: [String]) throws {
        let made: (URL) throws -> String = { folder in
            try Self.decoy(of: "video/counter.mp4", box: "stsz", setting: [(8, 100), (12, 3_000_000)], padding: 3_100_000,
                           as: "index.mp4", in: folder)
        }
        try expectRefused(command: command + ["--max-memory", "64M"], decoy: made,
                          saying: "its sample index of 6000000 entries needs 184 MiB of memory, over the limit of 64 MiB (--max-memory)")
    }

    /// Claims FFmpeg reads wherever its parser meets them, which a walk down the path they belong
    /// on missed (the red team's second round): the counter's 40 million samples in a `moov` whose
    /// size runs past the file (as a cut-short upload's does), the sound decoy with its track's
    /// handler saying other than sound, and a box named `cmov` (a compressed header).
    /// And the third round's: the 40 million samples behind an ID3v2 tag (which FFmpeg skips
    /// before it reads any format), and in a `moov` named `free` (which FFmpeg reads as the movie
    /// when it starts as a movie's header).
    @Test(arguments: ["oversize-moov", "sound-called-otherwise", "cmov", "id3-tag-first", "id3-v3-tag-with-footer-flag",
                      "movie-named-free"])
    func claimsWhereverTheyStandAreFound(trick: String) throws {
        let made: (URL) throws -> String = { folder in
            switch trick {
            case "id3-tag-first", "id3-v3-tag-with-footer-flag":
                let path = try Self.decoy(claiming: 40_000_000, in: folder)
                // "ID3", version 4.0, no flags, a size of 10 (7-bit bytes), then 10 bytes of tag;
                // or version 3.0 with the footer flag, whose footer FFmpeg does not skip.
                let tag: [UInt8] = trick == "id3-tag-first" ? Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 10] + [UInt8](repeating: 0, count: 10)
                    : Array("ID3".utf8) + [3, 0, 0x10, 0, 0, 0, 10] + [UInt8](repeating: 0, count: 10)
                try Data(tag + [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))).write(to: URL(fileURLWithPath: path))
                return path
            case "movie-named-free":
                let path = try Self.decoy(claiming: 40_000_000, in: folder)
                var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
                let moov = try #require((4..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("moov".utf8) })
                bytes[moov..<(moov + 4)] = ArraySlice("free".utf8)
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                return path
            case "oversize-moov":
                let path = try Self.decoy(claiming: 40_000_000, in: folder)
                var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
                let moov = try #require((4..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("moov".utf8) })
                let size = Int(bytes[moov - 4]) << 24 | Int(bytes[moov - 3]) << 16 | Int(bytes[moov - 2]) << 8 | Int(bytes[moov - 1]) + 100_000
                for index in 0..<4 { bytes[moov - 4 + index] = UInt8(truncatingIfNeeded: size >> (24 - 8 * index)) }
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                return path
            case "sound-called-otherwise":
                let path = try Self.soundChunkDecoy(in: folder)
                var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
                // The sound track's handler (the last 'soun'), as 'xxxx': FFmpeg knows sound by its sample description too.
                let sound = try #require((0..<(bytes.count - 4)).last { Array(bytes[$0..<($0 + 4)]) == Array("soun".utf8) })
                bytes[sound..<(sound + 4)] = ArraySlice("xxxx".utf8)
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                return path
            default:
                return try Self.decoy(of: "video/counter.mp4", box: "udta", setting: [(0, 0x636D_6F76)], as: "cmov.mp4", in: folder)
            }
        }
        // The v3 tag's footer flag makes FFmpeg's probe (which skips every footer) start 10 bytes
        // into the movie here: refused whichever reads it first.
        let said = trick == "cmov" ? "its header is compressed (cmov)"
            : trick == "id3-v3-tag-with-footer-flag" ? "claims.mp4: " : "samples, more than the file's"
        try expectRefused(command: ["probe"], decoy: made, saying: said)
    }

    /// An edit list of many entries, each of which FFmpeg may build the whole index again for
    /// (2000 edits of 20,000 real samples took 935 MiB, "ok"): counted in the index's memory.
    @Test func anEditListsCopiesOfTheIndexAreCounted() throws {
        let made: (URL) throws -> String = { folder in
            // 200,000 samples the file can hold (a free box of 300 KB beside them), 1000 edits.
            let path = try Self.decoy(of: "video/counter.mp4", box: "stsz", setting: [(8, 1), (12, 200_000)], padding: 300_000,
                                      as: "edits.mp4", in: folder)
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            // After the type: version and flags (4), the entry count (4).
            let elst = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("elst".utf8) })
            bytes[(elst + 8)..<(elst + 12)] = [0, 0, 0x03, 0xE8]
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        try expectRefused(command: ["probe"], decoy: made, saying: "its sample index of 200200000 entries needs")
    }

    /// The fixtures the decoys are made of are read as they are.
    @Test(arguments: ["video/counter-fragmented.mp4", "video/counter-pcm.mov"])
    func fragmentsAndSoundChunksAreRead(fixture: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let probe = try ToolRun.run(["probe", Fixture.path(fixture)], deadline: 60)
        #expect(probe.status == 0, "\(probe.standardError)")
        #expect(probe.output.contains("\"width\":128"), "\(probe.output)")
        let thumbnail = try ToolRun.run(["thumbnail", Fixture.path(fixture), "-o", folder.appendingPathComponent("t.png").path], deadline: 60)
        #expect(thumbnail.status == 0, "\(thumbnail.standardError)")
    }

    /// Titles and comments whose words read as boxes (the fourth red team's "Elephant trunk" read
    /// as a `trun`, "presence" as a `senc`), written by ffmpeg into a plain MP4 and MOV and a
    /// fragmented MP4 (the fifth's: "trunk" where a fragment's header is, "presence" beside the
    /// "tenc" of "sentence"): read as they are.
    @Test(.enabled(if: try Requirement.tool(StoryboardTests.ffmpeg), "ffmpeg is not installed (scripts/bootstrap test installs it)"),
          arguments: [("video/counter.mp4", "Elephant trunk, truncated", "mp4"), ("video/counter.mov", "Elephant trunk, truncated", "mov"),
                      ("video/counter-fragmented.mp4", "in the presence of absence", "mp4"),
                      ("video/counter-fragmented.mp4", "Elephant trunk at the zoo", "mp4"),
                      ("video/counter.mp4", "Stage presence: a sentence or two", "mp4"),
                      ("video/counter-fragmented.mp4", "trunk", "bitexact mp4"),
                      ("video/counter.mp4", "tfhd trunk", "ismv mp4")])
    func wordsInMetadataAreNoClaims(fixture: String, words: String, container: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // "bitexact" leaves ffmpeg's own encoder tag out, so the title's last word runs into the
        // next box's small size: "trunk" then reads as a `trun` of 430 million entries, and
        // only the order of the boxes (no fragment's header before it) says it is text.
        // "ismv": Smooth Streaming's fragments, each track given defaults; text reading "tfhd"
        // before "trunk" names the track its letters spell, which has none (the seventh red team's).
        let bitexact = container.hasPrefix("bitexact ")
        let titled = folder.appendingPathComponent("titled.\(container.split(separator: " ").last!)").path
        var flags = ["-hide_banner", "-loglevel", "error", "-nostdin", "-i", Fixture.path(fixture), "-map", "0", "-c", "copy",
                     "-metadata", "title=\(words)", "-metadata", "comment=\(words) \(words)"]
        if bitexact { flags += ["-fflags", "+bitexact"] }
        if container.hasPrefix("ismv ") { flags += ["-f", "ismv"] }
        if fixture.contains("fragmented") { flags += ["-movflags", "frag_keyframe+empty_moov"] }
        let made = try ChildProcess.run(StoryboardTests.ffmpeg, flags + [titled], deadline: 60)
        #expect(made.status == 0, "\(made.standardError)")
        let written = try Data(contentsOf: URL(fileURLWithPath: titled))
        #expect(written.range(of: Data(words.utf8)) != nil)
        let probe = try ToolRun.run(["probe", titled], deadline: 60)
        #expect(probe.status == 0, "\(probe.standardError)")
        #expect(probe.output.contains("\"width\":128"), "\(probe.output)")
    }

    /// Runs `command` on the decoy `made` makes in a scratch folder: status 1, `said` in the error
    /// line or the report, nothing written beside the decoy.
    private func expectRefused(command: [String], decoy made: (URL) throws -> String, saying said: String) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let decoy = try made(folder)
        let name = (decoy as NSString).lastPathComponent
        let outputs: [String] = switch command[0] {
        case "thumbnail": ["-o", folder.appendingPathComponent("t.png").path]
        case "ingest": ["--out-dir", folder.appendingPathComponent("out").path]
        default: []
        }
        let run = try ToolRun.run(command + [decoy] + outputs, deadline: 60)
        #expect(run.status == 1)
        #expect(run.standardError.contains(said) || run.output.contains(said), "\(run.standardError)\(run.output)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != name }
        for entry in left {
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(entry).path).isEmpty, "\(entry)")
        }
    }

    @Test(arguments: [["probe"], ["thumbnail", "--max-memory", "256M"], ["preview"], ["storyboard"]])
    func aTableOfMoreSamplesThanBytesIsRefused(command: [String]) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let decoy = try Self.decoy(claiming: 40_000_000, in: folder)
        let outputs: [String] = switch command[0] {
        case "thumbnail": ["-o", folder.appendingPathComponent("t.png").path]
        case "preview": ["-o", folder.appendingPathComponent("p.webp").path]
        case "storyboard": ["--vtt", folder.appendingPathComponent("s.vtt").path]
        default: []
        }
        let run = try ToolRun.run(command + [decoy] + outputs, deadline: 60)
        #expect(run.status == 1)
        let said = "the file's sample tables: its tracks claim 40000000 samples, more than the file's"
        #expect(run.standardError.contains(said) || run.output.contains(said), "\(run.standardError)\(run.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["claims.mp4"])
    }

    /// The same file with a count it can hold is read as it is (the check refuses no real table).
    @Test func aTableTheFileCanHoldIsRead() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["probe", try Self.decoy(claiming: 60, in: folder)])
        #expect(run.status == 0, "\(run.standardError)")
    }
}
