/// A QuickTime timed-metadata track (sample description `mebx`, as an iPhone writes its Live
/// Photo's still-image time, and some cameras their position as they move): its keys, and where
/// and when its samples lie. A sample is a run of items, each [size][local key][value].
///
/// Read strictly: FFmpeg and exiftool take the last of two `stco` boxes, search a description for
/// its `keys`, and clamp an entry whose size lies, each in its own way, so a track that can be
/// read two ways is marked `isAmbiguous`, and strip refuses it rather than strip one reading and
/// leave the other's position (the twelfth red team hid positions eleven ways so).
struct TimedMetadataTrack {
    /// The keys' names (`com.apple.quicktime.still-image-time`...) by their local key.
    let keys: [UInt32: String]
    /// Where each sample's bytes lie, counted from the movie's first byte (as `stco` counts); nil
    /// where they were not read (not wanted, cut, disagreeing, or past the movie's budget).
    let samples: [Range<Int>]?
    /// When each sample is presented, in seconds from the movie's start, as far as `stts` goes.
    let times: [Double]
    /// The `trak` box's bytes in the movie's, but its sample tables (sizes, offsets, times: numbers,
    /// where a word may stand by chance), for a caller that looks for what the reading missed.
    let text: [Range<Int>]
    /// Two boxes where one belongs, bytes that are no box, keys given twice or sizes that lie:
    /// readers disagree on what this track holds.
    let isAmbiguous: Bool

    /// One item of a sample: its local key, and where its value lies in the sample.
    struct Item {
        let key: UInt32
        let start: Int
        let value: Range<Int>
    }

    /// Table entries read at most in one movie, every track's together: a sample a frame at 60 fps
    /// for over four hours. Past it, samples are left unread (a claim is no memory or time of ours).
    static let mostEntries = 1 << 20
    /// A sample table's boxes of numbers alone.
    static let numberTables: Set<String> = ["stsz", "stz2", "stco", "co64", "stsc", "stts", "ctts", "stss", "sdtp", "sgpd", "sbgp"]
    /// Keys read at most in a track's description.
    static let mostKeys = 4096

    /// The timed-metadata tracks of the `moov` box `movie` in `bytes`: every `trak` whose bytes
    /// hold a `mebx` description. Samples are read for those whose keys `wanted` says, within
    /// `mostEntries` for the movie.
    static func tracks(in bytes: [UInt8], movie: MovieBox, readingSamplesOf wanted: ([UInt32: String]) -> Bool) -> [TimedMetadataTrack] {
        let movieTimescale = movie.child("mvhd", in: bytes).flatMap { Self.timescale(of: $0, in: bytes) } ?? 0
        var budget = mostEntries
        return movie.children(in: bytes).filter { $0.type == "trak" && bytes[$0.start..<$0.end].range(of: Array("mebx".utf8)) != nil }.map {
            track(in: bytes, trak: $0, movieTimescale: movieTimescale, wanted: wanted, budget: &budget)
        }
    }

    /// The items of a sample's bytes, in order, up to the first that lies about its size.
    static func items(of sample: [UInt8]) -> [Item] {
        var items: [Item] = [], at = 0
        while at + 8 <= sample.count {
            let size = sample.bigEndian(at: at, count: 4)
            guard size >= 8, at + size <= sample.count else { break }
            items.append(Item(key: UInt32(sample.bigEndian(at: at + 4, count: 4)), start: at, value: (at + 8)..<(at + size)))
            at += size
        }
        return items
    }

    private static func track(in bytes: [UInt8], trak: MovieBox, movieTimescale: Int, wanted: ([UInt32: String]) -> Bool,
                              budget: inout Int) -> TimedMetadataTrack {
        var ambiguous = false
        /// The one child of `type`; two make the track ambiguous (the first is read).
        func only(_ type: String, in parent: MovieBox?) -> MovieBox? {
            guard let parent else { return nil }
            var found = parent.children(in: bytes).lazy.filter { $0.type == type }.makeIterator()
            let first = found.next()
            if found.next() != nil { ambiguous = true }
            return first
        }
        let media = only("mdia", in: trak)
        let table = only("stbl", in: only("minf", in: media))
        let (keys, keysAmbiguous) = table.map { self.keys(in: bytes, table: $0) } ?? ([:], false)
        ambiguous = ambiguous || keysAmbiguous
        var samples: [Range<Int>]?
        var times: [Double] = []
        if let table, !keys.isEmpty, wanted(keys) {
            let tables = ["stsz", "stsc", "stts", "stco", "co64", "stz2"].map { name in table.children(in: bytes).filter { $0.type == name } }
            // One of each, and one chunk table: FFmpeg and exiftool take the last of two.
            if tables[0].count != 1 || tables[1].count != 1 || tables[2].count > 1 || tables[3].count + tables[4].count != 1 || !tables[5].isEmpty {
                ambiguous = true
            } else {
                let placed = self.samples(in: bytes, sizes: tables[0][0], runs: tables[1][0], chunks: (tables[3] + tables[4])[0], budget: &budget)
                samples = placed.ranges
                ambiguous = ambiguous || placed.ambiguous
                if let samples, let media, let mediaTimescale = only("mdhd", in: media).flatMap({ timescale(of: $0, in: bytes) }), mediaTimescale > 0 {
                    let start = start(of: trak, in: bytes, movieTimescale: movieTimescale, mediaTimescale: mediaTimescale)
                    times = tables[2].first.map { decodingTimes(in: bytes, table: $0, count: samples.count, budget: &budget) }?
                        .map { start + Double($0) / Double(mediaTimescale) } ?? []
                }
            }
        }
        // The track's bytes around its sample tables' numbers.
        var text: [Range<Int>] = [], from = trak.start
        for numbers in table?.children(in: bytes).filter({ Self.numberTables.contains($0.type) }) ?? [] {
            text.append(from..<numbers.start)
            from = numbers.end
        }
        text.append(from..<trak.end)
        return TimedMetadataTrack(keys: keys, samples: samples, times: times, text: text, isAmbiguous: ambiguous)
    }

    /// Where the track's media starts in the movie, in seconds: its edit list's empty edits (in
    /// the movie's timescale), less the media time its first edit starts from (the media's).
    /// In doubles: a lying time is a wrong answer, never an overflow.
    private static func start(of trak: MovieBox, in bytes: [UInt8], movieTimescale: Int, mediaTimescale: Int) -> Double {
        guard let edits = trak.child("edts", in: bytes)?.child("elst", in: bytes), let version = edits.number(at: 0, count: 1, in: bytes),
              let count = edits.number(at: 4, count: 4, in: bytes) else { return 0 }
        let width = version == 1 ? 8 : 4
        var lead = 0.0
        for index in 0..<min(count, 64) {
            let at = 8 + index * (2 * width + 4)
            guard let duration = edits.number(at: at, count: width, in: bytes),
                  let time = edits.number(at: at + width, count: width, in: bytes) else { break }
            if time == (version == 1 ? -1 : 0xFFFF_FFFF) {
                if movieTimescale > 0 { lead += Double(duration) / Double(movieTimescale) }
            } else {
                return lead - Double(time) / Double(mediaTimescale)
            }
        }
        return lead
    }

    /// The keys of the table's one `mebx` description, by local key; ambiguous where there are
    /// several descriptions, bytes that are no box, an entry of two names or a key given twice.
    private static func keys(in bytes: [UInt8], table: MovieBox) -> (keys: [UInt32: String], ambiguous: Bool) {
        // stsd: version and flags, a count, then the descriptions; a description's boxes follow
        // its 6 reserved bytes and data reference index.
        let descriptionsBoxes = table.children(in: bytes).filter { $0.type == "stsd" }
        guard let descriptions = descriptionsBoxes.first else { return ([:], false) }
        var ambiguous = descriptionsBoxes.count > 1
        let entries = Array(descriptions.children(in: bytes, from: descriptions.payload + 8).prefix(2))
        ambiguous = ambiguous || entries.count != 1 || descriptions.number(at: 4, count: 4, in: bytes) != 1
        guard let description = entries.first(where: { $0.type == "mebx" }) else { return ([:], true) }
        ambiguous = ambiguous || !description.isTiled(in: bytes, from: description.payload + 8)
        let keyTables = description.children(in: bytes, from: description.payload + 8).filter { $0.type == "keys" }
        guard let keyTable = keyTables.first else { return ([:], ambiguous) }
        ambiguous = ambiguous || keyTables.count > 1 || !keyTable.isTiled(in: bytes)
        var keys: [UInt32: String] = [:]
        for (index, entry) in keyTable.children(in: bytes).enumerated() {
            guard index < mostKeys else { return (keys, true) }
            let names = entry.children(in: bytes).filter { $0.type == "keyd" }
            ambiguous = ambiguous || names.count != 1 || !entry.isTiled(in: bytes)
            guard let name = names.first, name.end - name.payload >= 4 else { continue }
            let local = UInt32(bytes.bigEndian(at: entry.start + 4, count: 4))
            if keys[local] != nil { ambiguous = true }
            // The key's namespace (`mdta`), then its name.
            keys[local] = String(decoding: bytes[(name.payload + 4)..<name.end], as: UTF8.self)
        }
        return (keys, ambiguous)
    }

    /// Each sample's bytes (`stsz` over `stsc` and `stco`/`co64`); nil unless the tables place
    /// every sample `stsz` claims within the budget; ambiguous where `stsc`'s runs do not start
    /// at chunk 1 and rise (readers place such samples each their own way).
    private static func samples(in bytes: [UInt8], sizes: MovieBox, runs: MovieBox, chunks: MovieBox, budget: inout Int)
        -> (ranges: [Range<Int>]?, ambiguous: Bool) {
        guard let fixedSize = sizes.number(at: 4, count: 4, in: bytes), let claimed = sizes.number(at: 8, count: 4, in: bytes),
              claimed <= budget, fixedSize != 0 || claimed == 0 || sizes.number(at: 12 + 4 * claimed - 4, count: 4, in: bytes) != nil,
              let runCount = runs.number(at: 4, count: 4, in: bytes), runCount <= budget, runs.number(at: 8 + 12 * runCount - 4, count: 4, in: bytes) != nil || runCount == 0,
              let chunkCount = chunks.number(at: 4, count: 4, in: bytes), chunkCount <= budget else { return (nil, false) }
        let offsetWidth = chunks.type == "co64" ? 8 : 4
        guard chunkCount == 0 || chunks.number(at: 8 + offsetWidth * chunkCount - offsetWidth, count: offsetWidth, in: bytes) != nil else { return (nil, false) }
        var firsts: [Int] = []
        for run in 0..<runCount {
            let first = runs.number(at: 8 + 12 * run, count: 4, in: bytes)!
            if first <= (firsts.last ?? 0) || (run == 0 && first != 1) { return (nil, true) }
            firsts.append(first)
        }
        budget -= claimed + runCount + chunkCount
        func size(_ sample: Int) -> Int { fixedSize != 0 ? fixedSize : sizes.number(at: 12 + 4 * sample, count: 4, in: bytes)! }

        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(claimed)
        var run = 0
        for chunk in 0..<chunkCount where ranges.count < claimed {
            var offset = chunks.number(at: 8 + offsetWidth * chunk, count: offsetWidth, in: bytes)!
            // The run this chunk is in: the last whose first chunk (counted from 1) is at or before it.
            while run + 1 < runCount, firsts[run + 1] <= chunk + 1 { run += 1 }
            guard runCount > 0 else { break }
            let perChunk = runs.number(at: 8 + 12 * run + 4, count: 4, in: bytes)!
            for _ in 0..<min(perChunk, claimed - ranges.count) {
                let length = size(ranges.count)
                guard offset >= 0, offset <= Int.max - length else { return (nil, false) }
                ranges.append(offset..<(offset + length))
                offset += length
            }
        }
        return (ranges.count == claimed ? ranges : nil, false)
    }

    /// The first `count` samples' decoding times (`stts`), in the media's timescale, as far as the
    /// table goes.
    private static func decodingTimes(in bytes: [UInt8], table: MovieBox, count: Int, budget: inout Int) -> [Int] {
        guard let entries = table.number(at: 4, count: 4, in: bytes), entries <= budget else { return [] }
        budget -= entries
        var decodingTimes: [Int] = [], time = 0
        for entry in 0..<entries where decodingTimes.count < count {
            guard let samples = table.number(at: 8 + 8 * entry, count: 4, in: bytes),
                  let delta = table.number(at: 12 + 8 * entry, count: 4, in: bytes) else { break }
            for _ in 0..<min(samples, count - decodingTimes.count) {
                decodingTimes.append(time)
                time += delta
            }
        }
        return decodingTimes
    }

    /// An `mvhd`'s or `mdhd`'s timescale (after dates of 4 bytes each, or 8 in version 1).
    private static func timescale(of header: MovieBox, in bytes: [UInt8]) -> Int? {
        guard let version = header.number(at: 0, count: 1, in: bytes) else { return nil }
        return header.number(at: version == 1 ? 20 : 12, count: 4, in: bytes)
    }
}
