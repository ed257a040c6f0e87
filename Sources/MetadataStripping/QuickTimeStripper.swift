/// MP4 and QuickTime metadata in `moov`: the position in user data (`©xyz`, 3GPP `loci`) and
/// the `mdta` keys (`com.apple.quicktime.location.ISO6709` and the rest of Apple's location
/// keys, serials, owners). Each item removed becomes a `free` box of the same size, its payload
/// zeroed: no box moves, so the sample offsets (`stco`/`co64`) and an enclosing file's offsets
/// (a Motion Photo's) stay right.
struct QuickTimeStripper {
    let bytes: FileBytes
    let groups: Set<StripGroup>

    /// Boxes whose children are boxes and may hold metadata.
    static let containers: Set<String> = ["moov", "trak", "udta", "meta", "ilst"]
    static let userDataLocations: [String: String] = ["\u{A9}xyz": "GPSCoordinates", "loci": "LocationInformation"]

    static func recognises(_ start: [UInt8]) -> Bool {
        guard start.count >= 8 else { return false }
        return ["ftyp", "moov", "mdat", "wide", "free", "skip"].contains { start[4..<8].elementsEqual($0.utf8) }
    }

    /// The edits of the file's part `range`: its top-level boxes walked, each `moov` read.
    func strip(_ range: Range<Int>) throws -> ByteEdits {
        var edits = ByteEdits()
        var index = range.lowerBound
        while index + 8 <= range.upperBound {
            let head = try bytes.peek(at: index, count: 16)
            guard let box = MovieBox.at(0, in: head, limit: range.upperBound - index) else {
                throw StripError.truncated(what: "a box", at: index)
            }
            if box.type == "uuid" {
                edits.append(try scrubXMP(uuidBox: index..<(index + box.end)))
            } else if box.type == "moov" || box.type == "udta" || box.type == "meta" {
                let moov = try bytes.read(index..<(index + box.end), what: "the \(box.type) box")
                var inner = ByteEdits()
                walk(moov, box, keys: [], into: &inner)
                for edit in inner.edits {
                    edits.replace((edit.range.lowerBound + index)..<(edit.range.upperBound + index), with: edit.replacement, current: [])
                }
                edits.removed += inner.removed
                if box.type == "moov" {
                    edits.append(try scrubTimedMetadata(in: moov, movie: box, movieStart: range.lowerBound))
                }
            }
            index += box.end
        }
        return edits
    }

    /// The items of timed-metadata tracks whose keys a removed group covers, in every sample:
    /// each made an item of no key (`free`) of the same size, its value zeroed, so that the
    /// track's other items (an orientation beside a position) and every offset stay.
    /// `movieStart`: where the movie starts in the file (a Motion Photo's is past its picture).
    /// A track whose bytes name what a removed group covers (`location` anywhere in them) is
    /// refused unless it reads one way only and its keys say so: what strip cannot find, it
    /// cannot say it removed.
    private func scrubTimedMetadata(in moov: [UInt8], movie: MovieBox, movieStart: Int) throws -> ByteEdits {
        var edits = ByteEdits()
        let tracks = TimedMetadataTrack.tracks(in: moov, movie: movie) { keys in keys.values.contains { Self.group(ofKey: $0).map(groups.contains) ?? false } }
        for track in tracks {
            let removedKeys = track.keys.filter { Self.group(ofKey: $0.value).map(groups.contains) ?? false }
            // Each removed group's words in the track's bytes, against those its keys as read
            // account for: more are a name the reading missed (an entry whose size exiftool reads
            // otherwise), and the track is refused.
            let found = track.text.reduce(into: [String: Int]()) { counts, range in
                counts.merge(Self.groupWords(in: moov[range]), uniquingKeysWith: +)
            }
            let accounted = Self.groupWords(in: Array(track.keys.values.joined(separator: "\n").utf8)[...])
            let hidden = found.contains { word, count in count > accounted[word, default: 0] && groups.contains(Self.wordGroups[word]!) }
            guard !removedKeys.isEmpty || !found.keys.filter({ groups.contains(Self.wordGroups[$0]!) }).isEmpty else { continue }
            guard !removedKeys.isEmpty, !hidden, !track.isAmbiguous, let samples = track.samples else {
                let named = found.keys.compactMap { Self.wordGroups[$0] }.filter(groups.contains).map(\.rawValue).sorted()
                throw StripError.unreadableTimedMetadata(key: removedKeys.values.sorted().first ?? named[0])
            }
            var removedAny = false
            for sample in samples where !sample.isEmpty {
                let (start, overflow) = movieStart.addingReportingOverflow(sample.lowerBound)
                guard !overflow else { throw StripError.truncated(what: "a timed-metadata sample", at: sample.lowerBound) }
                let bytes = try self.bytes.read(start..<(start + sample.count), what: "a timed-metadata sample")
                for item in TimedMetadataTrack.items(of: bytes) where removedKeys[item.key] != nil {
                    let old = Array(bytes[(item.start + 4)..<item.value.upperBound])
                    edits.overwrite(at: start + item.start + 4, old: old, new: Array("free".utf8) + [UInt8](repeating: 0, count: item.value.count))
                    removedAny = true
                }
                try edits.checkHeld()
            }
            if removedAny { edits.removed += removedKeys.values.sorted().map { "QuickTime:\($0) (timed)" } }
        }
        return edits
    }

    /// The words that name what a group covers, as `group(ofKey:)` tells a key's group.
    static let wordGroups: [String: StripGroup] = ["location": .location, "gps": .location, "serial": .serial, "owner": .owner,
                                                   ".author": .author, ".artist": .author]

    /// How often each of `wordGroups`' words stands in `bytes`, in any case.
    static func groupWords(in bytes: ArraySlice<UInt8>) -> [String: Int] {
        let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }[...]
        var counts: [String: Int] = [:]
        for word in wordGroups.keys {
            var rest = lowered[...]
            while let found = rest.range(of: Array(word.utf8)) {
                counts[word, default: 0] += 1
                rest = lowered[found.upperBound...]
            }
        }
        return counts
    }

    /// XMP's UUID (`BE7ACFCB-97A9-42E8-9C71-999491E3AFAC`): an MP4's top-level `uuid` box of XMP.
    static let xmpUUID: [UInt8] = [0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC]

    /// The XMP of a top-level `uuid` box at `range`, blanked where it lies, if the box is XMP's.
    private func scrubXMP(uuidBox range: Range<Int>) throws -> ByteEdits {
        var edits = ByteEdits()
        let head = try bytes.peek(at: range.lowerBound, count: 24)
        guard range.count >= 24, head.count == 24, head[8..<24].elementsEqual(Self.xmpUUID) else { return edits }
        let packet = try bytes.read((range.lowerBound + 24)..<range.upperBound, what: "the XMP box")
        let (scrubbed, removed) = XMPScrubber.scrub(packet, removing: groups)
        edits.overwrite(at: range.lowerBound + 24, old: packet, new: scrubbed)
        edits.removed += removed
        return edits
    }

    /// Walks the children of `parent` in `bytes`; `keys`: the names of the `mdta` keys of the
    /// `meta` box being walked, by their 1-based index.
    private func walk(_ bytes: [UInt8], _ parent: MovieBox, keys: [String], into edits: inout ByteEdits, depth: Int = 0) {
        guard depth < 8 else { return }
        var index = parent.payload
        if parent.type == "meta", index + 8 <= parent.end, !bytes[(index + 4)..<(index + 8)].elementsEqual("hdlr".utf8) {
            // ISO's meta is a full box (4 bytes of version and flags); QuickTime's is not.
            index += 4
        }
        // The children are walked twice: the keys first.
        let children = { parent.children(in: bytes, from: index) }
        let keyNames = children().first { $0.type == "keys" }.map { Self.keyNames(in: bytes, $0) } ?? keys
        for child in children() {
            if child.type == "XMP_" {
                // QuickTime's XMP, in user data.
                let packet = Array(bytes[child.payload..<child.end])
                let (scrubbed, removed) = XMPScrubber.scrub(packet, removing: groups)
                edits.overwrite(at: child.payload, old: packet, new: scrubbed)
                edits.removed += removed
            } else if let name = removedName(of: child, in: parent, keys: keyNames) {
                free(child, in: bytes, into: &edits)
                edits.removed.append("QuickTime:\(name)")
            } else if Self.containers.contains(child.type) {
                walk(bytes, child, keys: keyNames, into: &edits, depth: depth + 1)
            }
        }
    }

    /// The name of what `box` holds if a removed group covers it.
    private func removedName(of box: MovieBox, in parent: MovieBox, keys: [String]) -> String? {
        if parent.type == "udta" || parent.type == "ilst", let name = Self.userDataLocations[box.type], groups.contains(.location) {
            return name
        }
        guard parent.type == "ilst" else { return nil }
        // An ilst item of a keyed meta is named by its key's index, as a 32-bit number.
        let index = box.type.unicodeScalars.reduce(0) { $0 << 8 | Int($1.value) }
        guard index >= 1, index <= keys.count else { return nil }
        let key = keys[index - 1]
        guard let group = Self.group(ofKey: key), groups.contains(group) else { return nil }
        return key
    }

    static func group(ofKey key: String) -> StripGroup? {
        let lowered = key.lowercased()
        if lowered.contains("location") || lowered.contains("gps") { return .location }
        if lowered.contains("serial") { return .serial }
        if lowered.contains("owner") { return .owner }
        if lowered.hasSuffix(".author") || lowered.hasSuffix(".artist") { return .author }
        return nil
    }

    /// The names of a `keys` box's entries, in order.
    private static func keyNames(in bytes: [UInt8], _ keys: MovieBox) -> [String] {
        guard keys.payload + 8 <= keys.end else { return [] }
        let count = bytes.bigEndian(at: keys.payload + 4, count: 4)
        var names: [String] = [], index = keys.payload + 8
        while names.count < min(count, 4096), index + 8 <= keys.end {
            let size = bytes.bigEndian(at: index, count: 4)
            guard size >= 8, index + size <= keys.end else { break }
            names.append(String(decoding: bytes[(index + 8)..<(index + size)], as: UTF8.self))
            index += size
        }
        return names
    }

    /// `box` made a `free` box of the same size, its payload zeroed.
    private func free(_ box: MovieBox, in bytes: [UInt8], into edits: inout ByteEdits) {
        let old = Array(bytes[(box.start + 4)..<box.end])
        var new = Array("free".utf8) + [UInt8](repeating: 0, count: old.count - 4)
        if box.payload - box.start == 16 { new.replaceSubrange(4..<12, with: bytes[(box.start + 8)..<(box.start + 16)]) }
        edits.overwrite(at: box.start + 4, old: old, new: new)
    }
}
