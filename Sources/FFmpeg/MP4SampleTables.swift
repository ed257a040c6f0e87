import FileIO

/// What an MP4 (or MOV) says of its samples, read before FFmpeg builds its index from it. FFmpeg
/// gives every sample an index entry (24 bytes, and 8 more for its composition offset) from what
/// the boxes claim, before it reads any sample and however few bytes the file has: a 3.5 KB file
/// whose `stsz` claimed 40 million samples, a 4.5 KB fragmented file whose one `trun` claimed 30
/// million, and a 19 KB MOV whose `stsc` gave its sound 2^31-1 samples a chunk each cost a gigabyte
/// a worker. Every box that makes entries is read here: the sample sizes (`stsz`, `stz2`), the
/// chunks of uncompressed sound (`stsc` over `stco`/`co64`, which FFmpeg cuts into entries of at
/// most 1024 samples), and each fragment's track runs (`trun`).
///
/// Each sample and each piece of a chunk holds a byte or more of the file: claims of more entries
/// than the file has bytes are a lie, refused. What is left is the index's memory, which
/// `FormatContext` counts against the run's budget. Every box is read where it is, bounded by its
/// parent and the file; a walk of more boxes than any real file has is refused too.
enum MP4SampleTables {
    /// Boxes read at most, whatever the file claims: a phone's clip has about 60, a fragmented
    /// hour of video cut every second about 25,000.
    static let mostBoxes = 1_000_000
    /// What FFmpeg holds for each entry: the index entry (24 bytes) and the composition offset
    /// kept beside it (8).
    static let bytesPerIndexEntry = 32
    /// FFmpeg cuts a chunk of uncompressed or simply coded sound into entries of 1024 samples
    /// (fewer, a whole number of frames, where a frame holds several): never fewer than 160 samples
    /// an entry but for the chunk's last.
    static let fewestSamplesPerSoundEntry = 160

    /// The index FFmpeg will build for `file`: its entries, at most as many as the file has bytes.
    struct Index: Equatable {
        var entries = 0
        var bytes: Int { entries * MP4SampleTables.bytesPerIndexEntry }
    }

    /// What `file`'s boxes make FFmpeg index; an empty index when the file is no MP4 or MOV or its
    /// tables cannot be found (FFmpeg then says why). Throws when they claim more than the file holds.
    static func index(of file: InputFile) throws(MP4Error) -> Index {
        guard let size = file.size, size >= 16 else { return Index() }
        var walker = Walker(file: file, size: size)
        let top = try walker.children(of: 0..<size)
        guard top.contains(where: { isTopLevelOfISOFile($0.type) }) else { return Index() }
        var index = Index()
        for moov in top where moov.type == "moov" {
            for trak in try walker.children(of: moov.content) where trak.type == "trak" {
                let track = try walker.track(in: trak.content)
                index.entries = index.entries.addingClamped(track.soundPieces ?? track.samples)
            }
        }
        // A fragmented file's samples are in its fragments, each run's count read when FFmpeg
        // reaches its fragment: the whole file's are counted, as they will all be held.
        for moof in top where moof.type == "moof" {
            for traf in try walker.children(of: moof.content) where traf.type == "traf" {
                for trun in try walker.children(of: traf.content) where trun.type == "trun" {
                    // version and flags (4), then the sample count (4).
                    guard let count = walker.integer(at: trun.content.lowerBound + 4, bytes: 4) else { continue }
                    index.entries = index.entries.addingClamped(count)
                }
            }
        }
        if index.entries > size { throw .moreSamplesThanBytes(claimed: index.entries, fileSize: size) }
        return index
    }

    /// The boxes an ISO media file (QuickTime's older ones included) may start with.
    static func isTopLevelOfISOFile(_ type: String) -> Bool {
        ["ftyp", "moov", "moof", "mdat", "wide", "free", "skip"].contains(type)
    }

    struct Box {
        let type: String
        let content: Range<Int>
    }

    /// What one track's sample table claims.
    struct Track {
        /// The sample count of `stsz` or `stz2`.
        var samples = 0
        /// For sound that FFmpeg reads a chunk at a time (one `stts` entry of duration 1: samples
        /// are PCM frames), the entries its chunks are cut into; nil for every other track.
        var soundPieces: Int?
    }

    struct Walker {
        let file: InputFile
        let size: Int
        var read = 0
        /// The file's bytes from `windowStart`, read a window at a time: a box's header is 8
        /// bytes, and one read each took a system call per field (90 for a phone's clip).
        var window: [UInt8] = []
        var windowStart = 0
        static let windowSize = 16 << 10

        mutating func integer(at offset: Int, bytes count: Int) -> Int? {
            guard offset >= 0, count <= Self.windowSize, offset + count <= size else { return nil }
            if offset < windowStart || offset + count > windowStart + window.count {
                window = [UInt8](repeating: 0, count: min(Self.windowSize, size - offset))
                guard let got = try? window.withUnsafeMutableBytes({ try file.read(at: offset, into: $0) }) else {
                    window = []
                    return nil
                }
                window.removeLast(window.count - got)
                windowStart = offset
                guard got >= count else { return nil }
            }
            let start = offset - windowStart
            return window[start..<start + count].reduce(0) { $0 << 8 | Int($1) }
        }

        /// The boxes inside `range`, in order; fewer where one's size runs past it.
        mutating func children(of range: Range<Int>) throws(MP4Error) -> [Box] {
            var boxes: [Box] = []
            var offset = range.lowerBound
            while offset + 8 <= range.upperBound {
                read += 1
                if read > MP4SampleTables.mostBoxes { throw .tooManyBoxes(limit: MP4SampleTables.mostBoxes) }
                guard let declared = integer(at: offset, bytes: 4), let type = integer(at: offset + 4, bytes: 4) else { break }
                var header = 8
                var length = declared
                if declared == 1 {
                    guard let large = integer(at: offset + 8, bytes: 8) else { break }
                    (header, length) = (16, large)
                } else if declared == 0 {
                    length = range.upperBound - offset
                }
                guard length >= header, length <= range.upperBound - offset else { break }
                boxes.append(Box(type: Self.name(type), content: (offset + header)..<(offset + length)))
                offset += length
            }
            return boxes
        }

        static func name(_ type: Int) -> String {
            String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: type >> (24 - 8 * $0)) }, as: UTF8.self)
        }

        mutating func path(_ types: [String], in range: Range<Int>) throws(MP4Error) -> Box? {
            var current: Box?
            var within = range
            for type in types {
                guard let found = try children(of: within).first(where: { $0.type == type }) else { return nil }
                current = found
                within = found.content
            }
            return current
        }

        /// What the sample table of the track whose `trak` holds `range` claims.
        mutating func track(in range: Range<Int>) throws(MP4Error) -> Track {
            var track = Track()
            guard let mdia = try path(["mdia"], in: range) else { return track }
            let mdiaChildren = try children(of: mdia.content)
            // hdlr: version and flags (4), pre-defined (4), then the handler's type.
            let isSound = mdiaChildren.first { $0.type == "hdlr" }.flatMap { integer(at: $0.content.lowerBound + 8, bytes: 4) }
                .map { Self.name($0) == "soun" } ?? false
            guard let minf = mdiaChildren.first(where: { $0.type == "minf" }),
                  let stbl = try path(["stbl"], in: minf.content) else { return track }
            let tables = try children(of: stbl.content)
            for box in tables where box.type == "stsz" || box.type == "stz2" {
                // version and flags (4), then stsz: sample size (4) and count (4); stz2: reserved
                // and field size (4) and count (4).
                if let count = integer(at: box.content.lowerBound + 8, bytes: 4) { track.samples = track.samples.addingClamped(count) }
            }
            // FFmpeg reads sound a chunk at a time where its one stts entry gives each sample a
            // duration of 1 (PCM frames).
            if isSound, let stts = tables.first(where: { $0.type == "stts" }),
               integer(at: stts.content.lowerBound + 4, bytes: 4) == 1, integer(at: stts.content.lowerBound + 12, bytes: 4) == 1 {
                track.soundPieces = try soundPieces(tables)
            }
            return track
        }

        /// At most the entries FFmpeg cuts a track's sound chunks into: every chunk of `stco` or
        /// `co64` at the most samples any run of `stsc` gives a chunk. (FFmpeg mends runs out of
        /// order by moving counts between them: the most of them bounds what it makes of any.)
        /// Entry counts past their box are refused: FFmpeg would read the next boxes as entries.
        mutating func soundPieces(_ tables: [Box]) throws(MP4Error) -> Int {
            guard let offsets = tables.first(where: { $0.type == "stco" || $0.type == "co64" }),
                  let stsc = tables.first(where: { $0.type == "stsc" }),
                  let chunks = try entryCount(of: offsets, entryBytes: offsets.type == "co64" ? 8 : 4),
                  let runs = try entryCount(of: stsc, entryBytes: 12) else { return 0 }
            var mostSamplesPerChunk = 0
            for run in 0..<runs {
                // Each run: its first chunk (from 1), its samples a chunk, its description.
                guard let samples = integer(at: stsc.content.lowerBound + 8 + run * 12 + 4, bytes: 4) else { break }
                mostSamplesPerChunk = Swift.max(mostSamplesPerChunk, samples)
            }
            let perChunk = (mostSamplesPerChunk + MP4SampleTables.fewestSamplesPerSoundEntry - 1) / MP4SampleTables.fewestSamplesPerSoundEntry
            return chunks.multipliedClamped(by: perChunk)
        }

        /// A full box's entry count (after its version and flags), refused when its entries of
        /// `entryBytes` each run past the box.
        mutating func entryCount(of box: Box, entryBytes: Int) throws(MP4Error) -> Int? {
            guard let count = integer(at: box.content.lowerBound + 4, bytes: 4) else { return nil }
            let room = max(0, box.content.count - 8) / entryBytes
            if count > room { throw .moreEntriesThanTheBoxHolds(box: box.type, claimed: count, room: room) }
            return count
        }
    }
}

private extension Int {
    func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    func multipliedClamped(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}

/// An MP4 or MOV whose boxes say what the file cannot be.
public enum MP4Error: Error, Equatable, CustomStringConvertible {
    case moreSamplesThanBytes(claimed: Int, fileSize: Int)
    case moreEntriesThanTheBoxHolds(box: String, claimed: Int, room: Int)
    case tooManyBoxes(limit: Int)

    public var description: String {
        switch self {
        case .moreSamplesThanBytes(let claimed, let fileSize):
            return "its tracks claim \(claimed) samples, more than the file's \(fileSize) bytes can hold: refused"
        case .moreEntriesThanTheBoxHolds(let box, let claimed, let room):
            return "its '\(box)' box claims \(claimed) entries where it has room for \(room): refused"
        case .tooManyBoxes(let limit):
            return "more than \(limit) boxes, more than any real file has: refused"
        }
    }
}
