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
        case gps = "GPS"
    }

    static let makerNoteTag = 0x927C

    /// The Exif directory's offset, where IFD0 points to a readable one.
    var exifDirectory: Int? { pointer(Self.exifPointerTag) }

    /// Removes the GPS directory: its entries and their values zeroed, IFD0's pointer to it removed.
    /// Returns whether there was one.
    @discardableResult
    public mutating func removeGPS() -> Bool {
        guard let ifd0 = firstDirectory, entry(Self.gpsPointerTag, in: ifd0) != nil else { return false }
        if let gps = pointer(Self.gpsPointerTag) { erase(directory: gps) }
        _ = removeEntries(in: ifd0) { $0 == Self.gpsPointerTag }
        return true
    }

    /// Removes the tags `shouldRemove` picks from IFD0 and the Exif directory. A maker note is
    /// offered with its first bytes (`makerNote`), so that a caller can keep one it knows.
    public mutating func removeTags(where shouldRemove: (_ tag: Int, _ directory: ExifDirectory, _ makerNote: [UInt8]) -> Bool) -> [RemovedTag] {
        var removed: [RemovedTag] = []
        for (directory, offset) in [(ExifDirectory.ifd0, firstDirectory), (.exif, exifDirectory)] {
            guard let offset else { continue }
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
