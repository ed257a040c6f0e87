/// A QuickTime timed-metadata track (sample description `mebx`, as an iPhone writes its Live
/// Photo's still-image time, and some cameras their position as they move): its keys, and where
/// and when its samples lie. A sample is a run of items, each [size][local key][value].
struct TimedMetadataTrack {
    /// The keys' names (`com.apple.quicktime.still-image-time`...) by their local key.
    let keys: [UInt32: String]
    /// Where each sample's bytes lie, counted from the movie's first byte (as `stco` counts); nil
    /// where the tables are cut, disagree, or claim more samples than are read: strip refuses
    /// such a track rather than leave what it holds.
    let samples: [Range<Int>]?
    /// When each sample is presented, in seconds from the movie's start, as far as `stts` goes.
    let times: [Double]

    /// One item of a sample: its local key, and where its value lies in the sample.
    struct Item {
        let key: UInt32
        let start: Int
        let value: Range<Int>
    }

    /// Samples read at most a track: a sample a frame at 60 fps for over four hours. A track that
    /// claims more is left unread (its claim is no memory of ours).
    static let mostSamples = 1 << 20

    /// The timed-metadata tracks of the `moov` box `movie` in `bytes`.
    static func tracks(in bytes: [UInt8], movie: MovieBox) -> [TimedMetadataTrack] {
        let movieTimescale = movie.child("mvhd", in: bytes).flatMap { Self.timescale(of: $0, in: bytes) } ?? 0
        return movie.children(in: bytes).filter { $0.type == "trak" }.compactMap { track(in: bytes, trak: $0, movieTimescale: movieTimescale) }
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

    private static func track(in bytes: [UInt8], trak: MovieBox, movieTimescale: Int) -> TimedMetadataTrack? {
        guard let media = trak.child("mdia", in: bytes),
              let handler = media.child("hdlr", in: bytes), handler.number(at: 8, count: 4, in: bytes) == Self.code("meta"),
              let table = media.child("minf", in: bytes)?.child("stbl", in: bytes),
              let keys = keys(in: bytes, table: table), !keys.isEmpty else { return nil }
        let samples = samples(in: bytes, table: table)
        guard let mediaTimescale = media.child("mdhd", in: bytes).flatMap({ timescale(of: $0, in: bytes) }), mediaTimescale > 0 else {
            return TimedMetadataTrack(keys: keys, samples: samples, times: [])
        }
        // Where the track's media starts in the movie: its edit list's empty edits (the movie's
        // timescale), less the media time its first edit starts from (the media's).
        var lead = 0.0, mediaStart = 0
        if let edits = trak.child("edts", in: bytes)?.child("elst", in: bytes), let version = edits.number(at: 0, count: 1, in: bytes),
           let count = edits.number(at: 4, count: 4, in: bytes) {
            let width = version == 1 ? 8 : 4
            for index in 0..<min(count, 64) {
                let at = 8 + index * (2 * width + 4)
                guard let duration = edits.number(at: at, count: width, in: bytes),
                      let time = edits.number(at: at + width, count: width, in: bytes) else { break }
                let isEmpty = time == (version == 1 ? -1 : 0xFFFF_FFFF)
                if isEmpty {
                    if movieTimescale > 0 { lead += Double(duration) / Double(movieTimescale) }
                } else {
                    mediaStart = time
                    break
                }
            }
        }
        let times = decodingTimes(in: bytes, table: table, count: samples?.count ?? 0).map { time in
            lead + Double(time - mediaStart) / Double(mediaTimescale)
        }
        return TimedMetadataTrack(keys: keys, samples: samples, times: times)
    }

    /// The keys of the table's `mebx` sample description, by local key.
    private static func keys(in bytes: [UInt8], table: MovieBox) -> [UInt32: String]? {
        // stsd: version and flags, a count, then the descriptions; a description's boxes follow
        // its 6 reserved bytes and data reference index.
        guard let descriptions = table.child("stsd", in: bytes),
              let description = MovieBox.at(descriptions.payload + 8, in: bytes, limit: descriptions.end - descriptions.payload - 8),
              description.type == "mebx",
              let keyTable = description.children(in: bytes, from: description.payload + 8).first(where: { $0.type == "keys" }) else { return nil }
        var keys: [UInt32: String] = [:]
        for entry in keyTable.children(in: bytes).prefix(4096) {
            guard let name = entry.child("keyd", in: bytes), name.end - name.payload >= 4 else { continue }
            // The key's namespace (`mdta`), then its name.
            keys[UInt32(bytes.bigEndian(at: entry.start + 4, count: 4))] = String(decoding: bytes[(name.payload + 4)..<name.end], as: UTF8.self)
        }
        return keys
    }

    /// Each sample's bytes (`stsz` over `stsc` and `stco`/`co64`); nil unless the tables place
    /// every sample `stsz` claims.
    private static func samples(in bytes: [UInt8], table: MovieBox) -> [Range<Int>]? {
        guard let sizes = table.child("stsz", in: bytes), let fixedSize = sizes.number(at: 4, count: 4, in: bytes),
              let claimed = sizes.number(at: 8, count: 4, in: bytes), claimed <= mostSamples,
              fixedSize != 0 || sizes.number(at: 12 + 4 * claimed - 4, count: 4, in: bytes) != nil || claimed == 0,
              let runs = table.child("stsc", in: bytes), let runCount = runs.number(at: 4, count: 4, in: bytes) else { return nil }
        let wideOffsets = table.child("co64", in: bytes)
        guard let chunks = wideOffsets ?? table.child("stco", in: bytes), let chunkCount = chunks.number(at: 4, count: 4, in: bytes) else { return nil }
        let offsetWidth = wideOffsets == nil ? 4 : 8
        func size(_ sample: Int) -> Int { fixedSize != 0 ? fixedSize : sizes.number(at: 12 + 4 * sample, count: 4, in: bytes) ?? 0 }

        var ranges: [Range<Int>] = []
        var run = 0
        chunkLoop: for chunk in 0..<min(chunkCount, mostSamples) {
            guard var offset = chunks.number(at: 8 + offsetWidth * chunk, count: offsetWidth, in: bytes) else { break }
            // The run this chunk is in: the last whose first chunk (counted from 1) is at or before it.
            while run + 1 < min(runCount, mostSamples), let next = runs.number(at: 8 + 12 * (run + 1), count: 4, in: bytes), next <= chunk + 1 { run += 1 }
            guard let perChunk = runs.number(at: 8 + 12 * run + 4, count: 4, in: bytes) else { break }
            for _ in 0..<min(perChunk, mostSamples) {
                guard ranges.count < claimed else { break chunkLoop }
                let length = size(ranges.count)
                guard offset >= 0, length >= 0, offset <= Int.max - length else { break chunkLoop }
                ranges.append(offset..<(offset + length))
                offset += length
            }
        }
        return ranges.count == claimed ? ranges : nil
    }

    /// The first `count` samples' decoding times (`stts`), in the media's timescale, as far as the
    /// table goes.
    private static func decodingTimes(in bytes: [UInt8], table: MovieBox, count: Int) -> [Int] {
        guard let times = table.child("stts", in: bytes), let entries = times.number(at: 4, count: 4, in: bytes) else { return [] }
        var decodingTimes: [Int] = [], time = 0
        for entry in 0..<min(entries, mostSamples) {
            guard let samples = times.number(at: 8 + 8 * entry, count: 4, in: bytes),
                  let delta = times.number(at: 12 + 8 * entry, count: 4, in: bytes) else { break }
            for _ in 0..<min(samples, count - decodingTimes.count) {
                decodingTimes.append(time)
                time += delta
            }
            if decodingTimes.count == count { break }
        }
        return decodingTimes
    }

    /// An `mvhd`'s or `mdhd`'s timescale (after dates of 4 bytes each, or 8 in version 1).
    private static func timescale(of header: MovieBox, in bytes: [UInt8]) -> Int? {
        guard let version = header.number(at: 0, count: 1, in: bytes) else { return nil }
        return header.number(at: version == 1 ? 20 : 12, count: 4, in: bytes)
    }

    private static func code(_ text: String) -> Int {
        text.utf8.reduce(0) { $0 << 8 | Int($1) }
    }
}
