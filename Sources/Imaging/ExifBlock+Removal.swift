/// Removing tags from an EXIF block without moving anything: a removed entry's slot is taken by
/// the entries after it (the directory's own 12-byte table shrinks in place, its next-directory
/// link moved up with it), and the values it held out of line are zeroed where they lie. Every
/// other offset in the block, maker notes' included, stays right, so the block keeps its length
/// and a file that holds it needs no other change.
extension ExifBlock {
    /// A tag removed, and the directory it stood in.
    public struct RemovedTag: Sendable, Equatable {
        public let directory: ExifDirectory
        public let tag: Int
    }

    /// The directories of a block that removal reaches.
    public enum ExifDirectory: String, Sendable {
        case ifd0 = "IFD0"
        case exif = "ExifIFD"
        /// A TIFF's later pages, IFD1 (the thumbnail's), SubIFDs.
        case other = "IFD"
    }

    static let makerNoteTag = 0x927C
    static let subIFDsTag = 0x014A
    /// More directories than any real file has: a hostile chain ends here.
    static let mostDirectories = 64

    /// Every directory IFD0 reaches, each once: the chain of next-directory links (IFD1, a TIFF's
    /// pages), the Exif directories and SubIFDs any of them points to. A GPS directory is found
    /// from these (wherever a writer put its pointer, exiftool reads it).
    func reachableDirectories() -> [(offset: Int, kind: ExifDirectory)] {
        var found: [(offset: Int, kind: ExifDirectory)] = [], seen: Set<Int> = []
        var queue: [(offset: Int, kind: ExifDirectory)] = firstDirectory.map { [($0, .ifd0)] } ?? []
        while !queue.isEmpty, found.count < Self.mostDirectories {
            let (offset, kind) = queue.removeFirst()
            guard let count = entries(of: offset), seen.insert(offset).inserted else { continue }
            found.append((offset, kind))
            if let exif = entry(Self.exifPointerTag, in: offset).flatMap({ read32($0 + 8) }) { queue.append((exif, .exif)) }
            if let subIFDs = entry(Self.subIFDsTag, in: offset) {
                let number = min(read32(subIFDs + 4) ?? 0, Self.mostDirectories)
                let values = number <= 1 ? subIFDs + 8 : read32(subIFDs + 8) ?? -1
                for index in 0..<number { if let sub = read32(values + index * 4) { queue.append((sub, .other)) } }
            }
            if kind != .exif, let next = read32(offset + 2 + count * 12), next != 0 { queue.append((next, .other)) }
        }
        return found
    }

    /// Removes every GPS directory: its entries and their values zeroed, the pointer to it removed
    /// from whichever directory held it. Returns whether there was one.
    @discardableResult
    public mutating func removeGPS() -> Bool {
        var removed = false
        for (directory, _) in reachableDirectories() where entry(Self.gpsPointerTag, in: directory) != nil {
            if let gps = entry(Self.gpsPointerTag, in: directory).flatMap({ read32($0 + 8) }), entries(of: gps) != nil {
                erase(directory: gps)
            }
            removed = !removeEntries(in: directory) { $0 == Self.gpsPointerTag }.isEmpty || removed
        }
        return removed
    }

    /// Removes the tags `shouldRemove` picks from every directory but GPS's. A maker note is
    /// offered with its first bytes (`makerNote`), so that a caller can keep one it knows.
    public mutating func removeTags(where shouldRemove: (_ tag: Int, _ directory: ExifDirectory, _ makerNote: [UInt8]) -> Bool) -> [RemovedTag] {
        var removed: [RemovedTag] = []
        for (offset, directory) in reachableDirectories() {
            var makerNote: [UInt8] = []
            if let entry = entry(Self.makerNoteTag, in: offset), let (at, length) = outOfLineValue(entry) {
                makerNote = Array(bytes[at..<(at + min(length, 16))])
            }
            let tags = removeEntries(in: offset) { shouldRemove($0, directory, $0 == Self.makerNoteTag ? makerNote : []) }
            removed += tags.map { RemovedTag(directory: directory, tag: $0) }
        }
        return removed
    }

    /// Removes the entries of the directory at `directory` whose tags `shouldRemove` picks, zeroes
    /// their out-of-line values, and returns their tags. The directory's entries and link must lie
    /// inside the block, or nothing is done.
    mutating func removeEntries(in directory: Int, where shouldRemove: (Int) -> Bool) -> [Int] {
        guard let count = entries(of: directory) else { return [] }
        let table = directory + 2
        var kept: [[UInt8]] = [], removedTags: [Int] = [], zeroed: [Range<Int>] = []
        for index in 0..<count {
            let entry = table + index * 12
            let tag = read16(entry)!
            if shouldRemove(tag) {
                removedTags.append(tag)
                if let (offset, length) = outOfLineValue(entry) { zeroed.append(offset..<(offset + length)) }
            } else {
                kept.append(Array(bytes[entry..<(entry + 12)]))
            }
        }
        guard !removedTags.isEmpty else { return [] }
        let link = Array(bytes[(table + count * 12)..<(table + count * 12 + 4)])
        // The values first: a hostile value that overlaps the table must not undo the table's edit.
        for range in zeroed { zero(range) }
        write16(directory, kept.count)
        bytes.replaceSubrange(table..<(table + kept.count * 12), with: kept.joined())
        let newLink = table + kept.count * 12
        bytes.replaceSubrange(newLink..<(newLink + 4), with: link)
        zero((newLink + 4)..<(table + count * 12 + 4))
        return removedTags
    }
}

extension ExifBlock {
    /// Where the value of IFD0's `tag` lies in the block when it does not fit in its entry (a
    /// TIFF's XMP packet, tag 700, or IPTC block, 33723).
    public func valueRange(ofIFD0Tag tag: Int) -> Range<Int>? {
        guard let entry = entry(tag, in: firstDirectory), let (offset, length) = outOfLineValue(entry) else { return nil }
        return offset..<(offset + length)
    }
}
