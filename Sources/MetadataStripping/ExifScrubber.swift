import Imaging

/// Which EXIF tags each group removes, and the one pass that removes them from a block.
enum ExifScrubber {
    /// exiftool's names for the tags removed, so that a report reads as exiftool's listing does.
    static let tags: [Int: (name: String, group: StripGroup)] = [
        0xA431: ("SerialNumber", .serial),
        0xA435: ("LensSerialNumber", .serial),
        0xC62F: ("CameraSerialNumber", .serial),
        0xA430: ("OwnerName", .owner),
        0x927C: ("MakerNote", .makernotes),
        0x013B: ("Artist", .author),
        0x9C9D: ("XPAuthor", .author),
    ]

    /// Apple's maker notes hold no position, serial or name, and hold a Live Photo's content
    /// identifier: they stay.
    static let keptMakerNoteSignatures: [[UInt8]] = [Array("Apple iOS".utf8)]

    /// Whether a JPEG has an APPn segment (EXIF, XMP, IPTC...) before its first scan.
    static func holdsMetadata(_ jpeg: ArraySlice<UInt8>) -> Bool {
        var index = jpeg.startIndex + 2
        while index + 4 <= jpeg.endIndex, jpeg[index] == 0xFF {
            let marker = jpeg[index + 1]
            if (0xE1...0xEF).contains(marker) { return true }
            if marker == 0xDA || marker == 0xD9 { return false }
            index += 2 + (Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3]))
        }
        return false
    }

    /// `block` (a TIFF structure) with `groups` removed, and what was removed, each named
    /// `EXIF:name`. nil when the block is not one this reads.
    static func scrub(_ block: [UInt8], removing groups: Set<StripGroup>) -> (bytes: [UInt8], removed: [String])? {
        guard var exif = ExifBlock(block) else { return nil }
        var removed: [String] = []
        if groups.contains(.location), exif.removeGPS() { removed.append("EXIF:GPS") }
        let tagsRemoved = exif.removeTags { tag, _, makerNote in
            guard let (_, group) = tags[tag], groups.contains(group) else { return false }
            return !(tag == 0x927C && keptMakerNoteSignatures.contains { makerNote.starts(with: $0) })
        }
        removed += tagsRemoved.map { "EXIF:\(tags[$0.tag]!.name)" }
        // A thumbnail is a JPEG of its own, which may carry metadata of its own (a position, a
        // serial): one that does goes whole, whatever the groups.
        if exif.hasThumbnail, groups.contains(.thumbnail) || exif.thumbnailRange.map({ holdsMetadata(exif.bytes[$0]) }) == true {
            exif.dropThumbnail()
            removed.append("EXIF:ThumbnailImage")
        }
        return (exif.bytes, removed)
    }
}
