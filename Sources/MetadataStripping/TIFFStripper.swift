import Imaging

/// A TIFF file, which is itself the structure EXIF borrows: IFD0's GPS directory and tags, its
/// Exif directory's, its XMP packet (tag 700), IPTC datasets (33723) and Photoshop resources
/// (34377), all edited in place. The file is read whole, so it must be within what strip reads
/// at once.
struct TIFFStripper {
    let bytes: FileBytes
    let groups: Set<StripGroup>

    static func recognises(_ start: [UInt8]) -> Bool {
        start.starts(with: [0x49, 0x49, 0x2A, 0x00]) || start.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
    }

    func strip() throws -> ByteEdits {
        let original = try bytes.read(0..<bytes.size, what: "the TIFF file")
        guard var (file, removed) = ExifScrubber.scrub(original, removing: groups),
              let block = ExifBlock(original) else { throw StripError.truncated(what: "the first directory", at: 4) }
        if let range = block.valueRange(ofIFD0Tag: 700) {
            let (packet, names) = XMPScrubber.scrub(Array(file[range]), removing: groups)
            file.replaceSubrange(range, with: packet)
            removed += names
        }
        if let range = block.valueRange(ofIFD0Tag: 33723),
           let (datasets, names) = IPTCScrubber.scrubDatasets(Array(file[range]), removing: groups, keepsLength: true), datasets.count == range.count {
            file.replaceSubrange(range, with: datasets)
            removed += names
        }
        if let range = block.valueRange(ofIFD0Tag: 34377),
           let (resources, names) = IPTCScrubber.scrub(Array(file[range]), removing: groups, keepsLength: true), resources.count == range.count {
            file.replaceSubrange(range, with: resources)
            removed += names
        }
        var edits = ByteEdits()
        if let first = original.indices.first(where: { original[$0] != file[$0] }),
           let last = original.indices.last(where: { original[$0] != file[$0] }) {
            edits.overwrite(at: first, old: Array(original[first...last]), new: Array(file[first...last]))
        }
        edits.removed = removed
        return edits
    }
}
