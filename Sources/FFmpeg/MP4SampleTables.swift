import FileIO
import Failures

/// What an MP4 (or MOV) says of its samples, read before FFmpeg builds its index from it. FFmpeg
/// gives every sample an index entry (24 bytes, and 8 more for its composition offset) from what
/// the boxes claim, before it reads any sample and however few bytes the file has: a 3.5 KB file
/// whose `stsz` claimed 40 million samples, a 4.5 KB fragmented file whose one `trun` claimed 30
/// million, and a 19 KB MOV whose `stsc` gave its sound 2^31-1 samples a chunk each cost a gigabyte
/// a worker. The boxes that make entries are the sample sizes (`stsz`, `stz2`), the chunks of
/// uncompressed or simply coded sound (`stsc` over `stco`/`co64`, which FFmpeg cuts into entries
/// of at most 1024 samples), and each fragment's track runs (`trun`).
///
/// FFmpeg takes those boxes wherever its parser meets them (in a second `stbl`, in `udta`, in a
/// sample description's extensions, in a `moov` whose size runs past the file), the last copy
/// winning: a walk down the path they belong on was led past them. So the header's bytes are
/// searched for them instead: every occurrence of their type counts, each with what it claims
/// (a copy counted twice only claims more), grouped by the `trak` before it. A `cmov` (a
/// compressed header, which no search can see into) is refused. Text reads as boxes too (a title's
/// "trunk" as a `trun`, its "presence" as a `senc`): a claim FFmpeg only believes after another
/// box (a fragment's header, a track's encryption defaults) counts only where that box is found.
///
/// Each sample and each piece of a chunk holds a byte or more of the file: claims of more entries
/// than the file has bytes are a lie, refused. What is left is the index's memory, which
/// `FormatContext` counts against the run's budget.
enum MP4SampleTables {
    /// Top-level boxes read at most: a fragmented hour cut at every frame of 60 has about 1.5 million.
    static let mostBoxes = 8_000_000
    /// The header's bytes searched at most, all boxes but the media data's together.
    static let mostHeaderBytes = 256 << 20
    /// `stsc` runs read at most: a real one has a run a chunk at most.
    static let mostRuns = 4_000_000
    /// What FFmpeg holds for each entry: the index entry (24 bytes) and the composition offset
    /// kept beside it (8).
    static let bytesPerIndexEntry = 32
    /// FFmpeg cuts a chunk of uncompressed or simply coded sound into entries of 1024 samples
    /// (fewer, a whole number of frames, where a frame holds several): never fewer than 160 samples
    /// an entry but for the chunk's last.
    static let fewestSamplesPerSoundEntry = 160
    /// Sample descriptions of sound FFmpeg reads a chunk at a time: PCM, and QuickTime's old codecs.
    static let chunkedSoundFormats: Set<String> = ["lpcm", "sowt", "twos", "raw ", "in24", "in32", "fl32", "fl64", "NONE",
                                                    "ulaw", "alaw", "ima4", "MAC3", "MAC6", "agsm", "QDMC", "QDM2", "dvca"]

    /// The index FFmpeg will build for `file`: its entries, at most as many as the file has bytes.
    struct Index: Equatable {
        var entries = 0
        var bytes: Int { entries.multipliedClamped(by: MP4SampleTables.bytesPerIndexEntry) }
    }

    /// What `file`'s boxes make FFmpeg index; an empty index when the file is no MP4 or MOV. Throws
    /// when they claim more than the file holds, or hide their claims.
    static func index(of file: InputFile) throws(MP4Error) -> Index {
        guard let size = file.size, size >= 16 else { return Index() }
        var reader = Reader(file: file, size: size)
        // Where the boxes start after ID3v2 tags depends on whether FFmpeg skips a tag's footer
        // (only a v2.4 tag's, and not where its extended header is bad); and where it finds no
        // movie after them it reads the file again from its first byte, tags and all (its
        // `moov_retry`: "ID3" 04 then "moov" is a movie from byte 0). Each start is searched, the
        // worst kept.
        // A second read keeps what the first learnt: the tracks' defaults (`trex`) and the
        // fragment's header (`tfhd`), which only a `moof` makes FFmpeg forget, so a run the
        // second read meets before any header of its own is believed (the seventh red team's `free`
        // box read as the movie on the second read: 30 million samples in 4 KB, "ok").
        var worst = Index()
        for footers in Set(ID3Footers.allCases.map { reader.boxesStart(skipping: $0) }).sorted() {
            let first = try index(from: footers, of: &reader, size: size, after: nil)
            if first.index.entries > worst.entries { worst = first.index }
            if !first.foundMovie {
                let again = try index(from: 0, of: &reader, size: size, after: first.learnt)
                if again.index.entries > worst.entries { worst = again.index }
            }
        }
        return worst
    }

    /// One read of the boxes from `start` on: their index, whether a `moov` was among them, and
    /// what FFmpeg keeps for a read after it.
    struct Pass {
        var index = Index()
        var foundMovie = false
        var learnt: ClaimSearch.Learnt?
        var metFragmentHeaders = false
    }

    /// The index of the boxes from `start` on, read after a read that learnt `earlier`: searched
    /// once, and where fragments' headers were met, again with every track's defaults known from
    /// the start.
    private static func index(from start: Int, of reader: inout Reader, size: Int, after earlier: ClaimSearch.Learnt?) throws(MP4Error) -> Pass {
        let once = try index(from: start, of: &reader, size: size, after: earlier, knownDefaults: [])
        guard once.metFragmentHeaders, let learnt = once.learnt, !learnt.defaultedTracks.isEmpty else { return once }
        return try index(from: start, of: &reader, size: size, after: earlier, knownDefaults: learnt.defaultedTracks)
    }

    private static func index(from start: Int, of reader: inout Reader, size: Int, after earlier: ClaimSearch.Learnt?,
                              knownDefaults: Set<Int>) throws(MP4Error) -> Pass {
        let top = try reader.topLevelBoxes(from: start)
        guard top.contains(where: { isTopLevelOfISOFile($0.type) }) else { return Pass() }
        var search = ClaimSearch(size: size, boxStarts: Set(top.map(\.start) + [size]))
        if let earlier { search.learnt = earlier }
        search.knownDefaults = knownDefaults.union(earlier?.defaultedTracks ?? [])
        var searched = 0
        // The media data is samples, never read as boxes; the rest is searched, in file order:
        // padding too, for FFmpeg reads a `free` box that starts as a movie header as the movie.
        for box in top where box.type != "mdat" {
            searched += box.content.count + 8
            if searched > mostHeaderBytes { throw .headerTooLarge(limit: mostHeaderBytes) }
            // A top-level box of the search's types (a fragment, a segment index) is taken as
            // the search takes one it finds inside; then its content is searched.
            if let kind = ClaimSearch.types.firstIndex(of: box.type) { try search.take(ClaimSearch.types[kind], at: box.start + 4, with: &reader) }
            if box.type == "moof" { search.learnt.headerNamedADefaultedTrack = false }
            try search.search(box.content, with: &reader)
        }
        let claimed = search.claimedEntries()
        if claimed > size { throw .moreSamplesThanBytes(claimed: claimed, fileSize: size) }
        return Pass(index: Index(entries: search.heldEntries()), foundMovie: top.contains { $0.type == "moov" }, learnt: search.learnt,
                    metFragmentHeaders: search.metFragmentHeaders)
    }

    /// Which ID3v2 footers the boxes start after: FFmpeg skips a v2.4 tag's, but not where it
    /// found the tag's extended header bad; a search of each start leaves the tags no place to hide.
    enum ID3Footers: CaseIterable {
        case never, ofVersion4, always
    }

    /// The boxes an ISO media file (QuickTime's older ones included) may start with.
    static func isTopLevelOfISOFile(_ type: String) -> Bool {
        ["ftyp", "moov", "moof", "mdat", "wide", "free", "skip"].contains(type)
    }

    struct Box {
        let type: String
        /// Where its header starts.
        let start: Int
        let content: Range<Int>
    }

    /// What one track claims, from every copy of its tables.
    struct Track {
        var samples = 0
        var chunks = 0
        var mostSamplesPerChunk = 0
        /// The most entries of its edit lists (`elst`).
        var edits = 0
        /// Whether every `hdlr`, `stsd` and `stts` of it says what FFmpeg reads a chunk at a time:
        /// sound, of a chunked format, one duration of 1 for all samples (PCM frames).
        var handlers: [String] = []
        var formats: [String] = []
        var timings: [(count: Int, delta: Int)] = []

        var readsByChunks: Bool {
            !handlers.isEmpty && handlers.allSatisfy { $0 == "soun" }
                && !formats.isEmpty && formats.allSatisfy(MP4SampleTables.chunkedSoundFormats.contains)
                && !timings.isEmpty && timings.allSatisfy { $0 == (1, 1) }
        }

        var pieces: Int {
            let perChunk = (mostSamplesPerChunk + MP4SampleTables.fewestSamplesPerSoundEntry - 1) / MP4SampleTables.fewestSamplesPerSoundEntry
            return chunks.multipliedClamped(by: max(1, perChunk))
        }

        /// The entries FFmpeg reads of it: by chunks for such sound, else one a sample (and no
        /// fewer than its chunks, as any claim of either is believed). Each holds a byte of the
        /// file at least.
        var entries: Int { readsByChunks ? pieces : max(samples, pieces) }

    }

    /// Every claim in the header's bytes, by the track it follows.
    struct ClaimSearch {
        let size: Int
        /// Where the file's top-level boxes start (and its end): where a `sidx` may point.
        let boxStarts: Set<Int>
        /// Claims before any `trak`, and then each track's.
        var tracks = [Track()]
        /// Fragments FFmpeg keeps a record of, each with one for every track: a `moof` (top-level
        /// ones are counted by the caller), a `sidx` reference, a `tfra` entry.
        var fragments = 0
        /// Samples `senc` and `saiz` boxes claim encryption records for.
        var encryptedSamples = 0
        /// The boxes FFmpeg needs before it believes a `senc` (a track's encryption defaults,
        /// `tenc` or `schm`), found anywhere: without them four bytes that read as one are text
        /// ("presence"), for FFmpeg skips the box.
        var prerequisites: Set<String> = []

        /// What FFmpeg keeps from box to box, and from one read of the file to a second: the
        /// tracks the movie gave defaults to (`trex`), and whether a fragment's header (`tfhd`)
        /// named one of them since the last top-level `moof`. FFmpeg believes a `trun` only after
        /// such a header, and forgets it at each `moof`: a title's "trunk" in the movie, before
        /// the fragments, claims nothing, nor does one after text reading "tfhd" (whose track is
        /// its letters). Only a top-level `moof` makes it forget: four bytes reading "moof"
        /// elsewhere could hide a real run.
        struct Learnt {
            var defaultedTracks: Set<Int> = []
            var headerNamedADefaultedTrack = false
            /// Past `mostTracks` defaults, any track counts: a real movie has a few.
            var tooManyTracks = false
            static let mostTracks = 4096
        }
        var learnt = Learnt()
        /// Tracks given defaults anywhere in the file, as a first read found them: a fragment FFmpeg
        /// reads again after a seek meets the defaults of a `trex` that comes after it in the file.
        var knownDefaults: Set<Int> = []
        /// Whether any fragment's header was met: only then do the defaults found matter.
        var metFragmentHeaders = false
        /// Track runs FFmpeg can believe.
        var runs = 0
        var believedRuns: Int { runs }
        /// A `trun` of this many entries or more FFmpeg refuses before it allocates any
        /// (`entries + ctts_count >= UINT_MAX / sizeof(MOVCtts)`, 8 bytes at least): four letters
        /// of text ("trunk at the zoo") always count more.
        static let runsRefusedFrom = Int(UInt32.max) / 8
        /// A `senc` or `saiz` of this many samples or more FFmpeg refuses before it allocates
        /// (`sample_count >= INT_MAX / sizeof(AVEncryptionInfo *)`).
        static let encryptedSamplesRefusedFrom = Int(Int32.max) / 8
        /// Encrypted samples FFmpeg can believe: a track has encryption defaults somewhere.
        var believedEncryptedSamples: Int { prerequisites.isDisjoint(with: ["tenc", "schm"]) ? 0 : encryptedSamples }

        /// The types whose claims count, `trak`, which begins a track, and the boxes some claims need.
        static let types: [String] = ["trak", "stsz", "stz2", "stsc", "stco", "co64", "trun", "hdlr", "stsd", "stts", "cmov",
                                      "elst", "moof", "sidx", "tfra", "senc", "saiz", "tfhd", "trex", "tenc", "schm"]
        static let codes: [UInt32] = types.map { $0.utf8.reduce(0) { $0 << 8 | UInt32($1) } }
        /// Which bytes end one of `codes`: a code's last byte is looked up first, and most bytes end none.
        static let lastBytes: [Bool] = (0..<256).map { byte in codes.contains { Int($0 & 0xFF) == byte } }

        /// A fragment's record for one track (`MOVFragmentStreamInfo`, 56 bytes), in entries.
        static let entriesPerFragmentTrack = 2
        /// A sample's encryption record (`AVEncryptionInfo` and its allocations, about 470 bytes),
        /// in entries: FFmpeg makes one for each sample a `senc` claims, reading no byte for it
        /// where the initialisation vector is the track's.
        static let entriesPerEncryptedSample = 15

        /// The samples the file claims to hold, a byte each at least.
        func claimedEntries() -> Int {
            tracks.reduce(believedRuns) { $0.addingClamped($1.entries) }
        }

        /// The index's memory, in entries: the samples', and the index again for each edit beside
        /// the first (`mov_fix_index` copies the entries each edit covers, all of them at worst,
        /// before it frees the old: memory, not a claim of bytes, as edits may repeat samples), a
        /// record for each fragment and track, and each encrypted sample's.
        func heldEntries() -> Int {
            let fragmentRecords = fragments.multipliedClamped(by: max(1, tracks.count - 1)).multipliedClamped(by: Self.entriesPerFragmentTrack)
            // The most edits of any track, for every track's entries: four bytes that read as a
            // `trak` (in a box FFmpeg skips) must not part a track's edits from its samples.
            let edits = tracks.map(\.edits).max() ?? 0
            let samples = tracks.reduce(believedRuns) { $0.addingClamped($1.entries) }
            let encryption = believedEncryptedSamples.multipliedClamped(by: Self.entriesPerEncryptedSample)
            return samples.multipliedClamped(by: 1 + edits).addingClamped(fragmentRecords).addingClamped(encryption)
        }

        /// Searches `range` (the content of a top-level box) for every box that makes
        /// entries; each occurrence is read as FFmpeg would read its box there.
        mutating func search(_ range: Range<Int>, with reader: inout Reader) throws(MP4Error) {
            var offset = range.lowerBound
            while offset + 4 <= range.upperBound {
                guard let found = reader.nextCode(in: offset..<range.upperBound) else { return }
                let at = found.offset
                offset = at + 1
                // The box's size comes before its type: a type found where no box can start is none.
                guard at - 4 >= range.lowerBound,
                      let declared = reader.integer(at: at - 4, bytes: 4), declared == 1 || declared == 0 || declared >= 8 else { continue }
                try take(Self.types[found.index], at: at, with: &reader)
            }
        }

        mutating func take(_ type: String, at typeOffset: Int, with reader: inout Reader) throws(MP4Error) {
            // After the type: version and flags (4), then each box's fields.
            let fields = typeOffset + 8
            switch type {
            case "cmov":
                throw .compressedHeader
            case "trak":
                tracks.append(Track())
            case "stsz", "stz2":
                // stsz: sample size (4), count (4); stz2: reserved and field size (4), count (4).
                if let count = reader.integer(at: fields + 4, bytes: 4) { tracks[tracks.count - 1].samples = tracks[tracks.count - 1].samples.addingClamped(count) }
            case "stco", "co64":
                // FFmpeg reads the offsets to the end of the file, whatever the box's size says.
                if let count = reader.integer(at: fields, bytes: 4) {
                    let room = max(0, size - fields - 4) / (type == "co64" ? 8 : 4)
                    tracks[tracks.count - 1].chunks = max(tracks[tracks.count - 1].chunks, min(count, room))
                }
            case "stsc":
                // Runs of 12 bytes (first chunk, samples a chunk, description), read as FFmpeg reads them.
                guard let count = reader.integer(at: fields, bytes: 4) else { return }
                let runs = min(count, max(0, size - fields - 4) / 12)
                if runs > MP4SampleTables.mostRuns { throw .tooManyRuns(claimed: runs, limit: MP4SampleTables.mostRuns) }
                for run in 0..<runs {
                    guard let samples = reader.integer(at: fields + 4 + run * 12 + 4, bytes: 4) else { break }
                    tracks[tracks.count - 1].mostSamplesPerChunk = max(tracks[tracks.count - 1].mostSamplesPerChunk, samples)
                }
            case "trun":
                guard learnt.headerNamedADefaultedTrack, let count = reader.integer(at: fields, bytes: 4), count < Self.runsRefusedFrom else { return }
                runs = runs.addingClamped(count)
            case "elst":
                // Entries of 12 bytes at least (version 0), read no further than the file goes.
                if let count = reader.integer(at: fields, bytes: 4) {
                    let room = max(0, size - fields - 4) / 12
                    tracks[tracks.count - 1].edits = max(tracks[tracks.count - 1].edits, min(count, room))
                }
            case "moof":
                fragments = fragments.addingClamped(1)
            case "tfra":
                // Track (4), field sizes (4), entry count (4); entries of 11 bytes at least.
                if let count = reader.integer(at: fields + 8, bytes: 4) {
                    fragments = fragments.addingClamped(min(count, max(0, size - fields - 12) / 11))
                }
            case "sidx":
                try takeSegmentIndex(at: typeOffset, with: &reader)
            case "senc":
                // Version and flags (4), then the sample count (4).
                if let count = reader.integer(at: fields, bytes: 4), count < Self.encryptedSamplesRefusedFrom {
                    encryptedSamples = encryptedSamples.addingClamped(count)
                }
            case "saiz":
                // Version and flags (4); with flag 1 the info's type and parameter (8); the default
                // size (1); the sample count (4). FFmpeg makes a record for each (a byte of sizes
                // each, or none where the default is given and the record reads no byte).
                guard let flags = reader.integer(at: typeOffset + 4, bytes: 4) else { return }
                let countAt = fields + (flags & 1 != 0 ? 8 : 0) + 1
                if let count = reader.integer(at: countAt, bytes: 4), count < Self.encryptedSamplesRefusedFrom {
                    encryptedSamples = encryptedSamples.addingClamped(count)
                }
            case "tfhd", "trex":
                // Version and flags (4), then the track (FFmpeg refuses a header of track 0).
                guard let track = reader.integer(at: fields, bytes: 4), track != 0 else { return }
                if type == "trex" {
                    learnt.defaultedTracks.insert(track)
                    if learnt.defaultedTracks.count > Learnt.mostTracks { learnt.tooManyTracks = true; learnt.defaultedTracks = [] }
                } else {
                    metFragmentHeaders = true
                    if learnt.tooManyTracks || learnt.defaultedTracks.contains(track) || knownDefaults.contains(track) {
                        learnt.headerNamedADefaultedTrack = true
                    }
                }
            case "tenc", "schm":
                prerequisites.insert(type)
            case "hdlr":
                // Pre-defined (4), then the handler's type.
                if let handler = reader.integer(at: fields + 4, bytes: 4) { tracks[tracks.count - 1].handlers.append(Reader.name(handler)) }
            case "stsd":
                // Entry count (4), then the first entry: its size (4) and its format.
                if let format = reader.integer(at: fields + 8, bytes: 4) { tracks[tracks.count - 1].formats.append(Reader.name(format)) }
            case "stts":
                // Entry count (4), then the first entry: sample count (4) and duration (4).
                if let count = reader.integer(at: fields, bytes: 4), let delta = reader.integer(at: fields + 8, bytes: 4) {
                    tracks[tracks.count - 1].timings.append((count, delta))
                }
            default:
                break
            }
        }

        /// A `sidx` at `typeOffset`: each of its references makes a fragment's record, and must
        /// point where a top-level box starts, for FFmpeg reads a fragment there when it seeks
        /// (one inside the media data would be read as boxes, its claims unsearched).
        private mutating func takeSegmentIndex(at typeOffset: Int, with reader: inout Reader) throws(MP4Error) {
            guard let declared = reader.integer(at: typeOffset - 4, bytes: 4), declared >= 8,
                  let version = reader.integer(at: typeOffset + 4, bytes: 1) else { return }
            // Reference ID (4), timescale (4), earliest time and first offset (4 each, 8 in version 1).
            let wide = version != 0
            let firstOffsetAt = typeOffset + 16 + (wide ? 8 : 4)
            let countAt = firstOffsetAt + (wide ? 8 : 4) + 2
            guard let firstOffset = reader.integer(at: firstOffsetAt, bytes: wide ? 8 : 4),
                  let count = reader.integer(at: countAt, bytes: 2) else { return }
            fragments = fragments.addingClamped(count)
            var target = (typeOffset - 4).addingClamped(declared).addingClamped(firstOffset)
            for reference in 0..<count {
                guard let sizeField = reader.integer(at: countAt + 2 + reference * 12, bytes: 4) else { return }
                // A top-level index must point at top-level boxes; a nested one (which FFmpeg
                // follows too) may be four bytes that only look like one, and is refused where it
                // points at a fragment that is not at the top level.
                if !boxStarts.contains(target), boxStarts.contains(typeOffset - 4)
                    || reader.integer(at: target.addingClamped(4), bytes: 4) == 0x6D6F_6F66 {
                    throw .segmentIndexPointsInside(offset: target)
                }
                target = target.addingClamped(sizeField & 0x7FFF_FFFF)
            }
        }
    }

    struct Reader {
        let file: InputFile
        let size: Int
        var read = 0
        /// The file's bytes from `windowStart`, read a window at a time: a box's header is 8
        /// bytes, and one read each took a system call per field (90 for a phone's clip).
        var window: [UInt8] = []
        var windowStart = 0
        static let windowSize = 64 << 10

        /// Makes sure the window holds `offset..<offset + count` where the file has it.
        private mutating func load(_ offset: Int, _ count: Int) -> Bool {
            // Compared without adding: an offset a file gives may be the largest there is.
            guard offset >= 0, count <= Self.windowSize, offset <= size - count else { return false }
            if offset < windowStart || offset + count > windowStart + window.count {
                window = [UInt8](repeating: 0, count: min(Self.windowSize, size - offset))
                guard let got = try? window.withUnsafeMutableBytes({ try file.read(at: offset, into: $0) }) else {
                    window = []
                    return false
                }
                window.removeLast(window.count - got)
                windowStart = offset
                return got >= count
            }
            return true
        }

        mutating func integer(at offset: Int, bytes count: Int) -> Int? {
            guard load(offset, count) else { return nil }
            let start = offset - windowStart
            return window[start..<start + count].reduce(0) { $0 << 8 | Int($1) }
        }

        /// The first of the search's codes (four bytes, big-endian) at or after `range`'s start, and which.
        mutating func nextCode(in range: Range<Int>) -> (offset: Int, index: Int)? {
            let codes = ClaimSearch.codes
            var offset = range.lowerBound
            while offset + 4 <= range.upperBound {
                let span = min(Self.windowSize, range.upperBound - offset)
                guard span >= 4, load(offset, span) else { return nil }
                let start = offset - windowStart
                let ends = ClaimSearch.lastBytes
                let found: (Int, Int)? = window.withUnsafeBufferPointer { bytes in
                    for index in (start + 3)..<(start + span) where ends[Int(bytes[index])] {
                        let code = UInt32(bytes[index - 3]) << 24 | UInt32(bytes[index - 2]) << 16 | UInt32(bytes[index - 1]) << 8 | UInt32(bytes[index])
                        if let which = codes.firstIndex(of: code) { return (index - 3, which) }
                    }
                    return nil
                }
                if let (at, which) = found { return (windowStart + at, which) }
                // The next window overlaps this one by 3 bytes: a code across their edge is found.
                offset += span - 3
            }
            return nil
        }

        /// Where the boxes start: after the ID3v2 tags the file may start with, which FFmpeg
        /// skips before any format's reader, their footers as `footers` says.
        mutating func boxesStart(skipping footers: ID3Footers) -> Int {
            var offset = 0
            while let tag = id3v2TagLength(at: offset, footers: footers) { offset += tag }
            return offset
        }

        /// The file's boxes from `start`, each cut to the file's end where it claims more (as
        /// FFmpeg reads one).
        mutating func topLevelBoxes(from start: Int) throws(MP4Error) -> [Box] {
            var boxes: [Box] = []
            var offset = start
            while offset + 8 <= size {
                read += 1
                if read > MP4SampleTables.mostBoxes { throw .tooManyBoxes(limit: MP4SampleTables.mostBoxes) }
                guard let declared = integer(at: offset, bytes: 4), let type = integer(at: offset + 4, bytes: 4) else { break }
                var header = 8
                var length = declared
                if declared == 1 {
                    guard let large = integer(at: offset + 8, bytes: 8) else { break }
                    (header, length) = (16, large)
                } else if declared == 0 {
                    length = size - offset
                }
                guard length >= header else { break }
                let end = offset + min(length, size - offset)
                boxes.append(Box(type: Self.name(type), start: offset, content: min(offset + header, end)..<end))
                offset = end
            }
            return boxes
        }

        /// The length of the ID3v2 tag at `offset`, header and footer included, if one starts there
        /// (as FFmpeg's `ff_id3v2_match` tells one: "ID3", versions not 0xFF, a size of 7-bit bytes).
        mutating func id3v2TagLength(at offset: Int, footers: ID3Footers) -> Int? {
            guard load(offset, 10), let magic = integer(at: offset, bytes: 3), magic == 0x49_44_33,
                  let versions = integer(at: offset + 3, bytes: 2), versions >> 8 != 0xFF, versions & 0xFF != 0xFF,
                  let flags = integer(at: offset + 5, bytes: 1), let sizeBytes = integer(at: offset + 6, bytes: 4),
                  sizeBytes & 0x8080_8080 == 0 else { return nil }
            let size = (sizeBytes >> 24 & 0x7F) << 21 | (sizeBytes >> 16 & 0x7F) << 14 | (sizeBytes >> 8 & 0x7F) << 7 | sizeBytes & 0x7F
            let hasFooter = flags & 0x10 != 0 && (footers == .always || footers == .ofVersion4 && versions >> 8 == 4)
            return 10 + size + (hasFooter ? 10 : 0)
        }

        static func name(_ type: Int) -> String {
            String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: type >> (24 - 8 * $0)) }, as: UTF8.self)
        }
    }
}

extension Int {
    func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    func multipliedClamped(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}

/// An MP4 or MOV whose boxes say what the file cannot be, or hide what they say.
public enum MP4Error: Error, Equatable, CustomStringConvertible {
    case moreSamplesThanBytes(claimed: Int, fileSize: Int)
    case tooManyRuns(claimed: Int, limit: Int)
    case tooManyBoxes(limit: Int)
    case headerTooLarge(limit: Int)
    case compressedHeader
    case segmentIndexPointsInside(offset: Int)

    public var description: String {
        switch self {
        case .moreSamplesThanBytes(let claimed, let fileSize):
            return "its tracks claim \(claimed) samples, more than the file's \(fileSize) bytes can hold: refused"
        case .tooManyRuns(let claimed, let limit):
            return "its 'stsc' box claims \(claimed) runs of chunks, more than \(limit), more than any real file has: refused"
        case .tooManyBoxes(let limit):
            return "more than \(limit) boxes, more than any real file has: refused"
        case .headerTooLarge(let limit):
            return "its boxes besides the media data hold more than \(limit >> 20) MiB, more than any real file's: refused"
        case .compressedHeader:
            return "its header is compressed (cmov), as QuickTime wrote it in the 1990s, which is not read: refused"
        case .segmentIndexPointsInside(let offset):
            return "its segment index (sidx) points at byte \(offset), inside a box rather than at a fragment: refused"
        }
    }
}

extension MP4Error: ClassifiedError {
    public var failureKind: FailureKind {
        switch self {
        case .moreSamplesThanBytes, .tooManyRuns: return .damaged
        case .tooManyBoxes, .headerTooLarge: return .overLimit
        case .compressedHeader: return .unsupportedFormat
        case .segmentIndexPointsInside: return .damaged
        }
    }
}
