import HEIFCodec

/// A HEIC's or AVIF's `Exif` and XMP (`mime`) items, edited where their extents lie; then every
/// top-level box walked as an MP4's are, so that a Motion Photo's video appended after the picture
/// (its own `ftyp` and `moov`) is stripped too, whatever the XMP says of it. Items keep their
/// lengths, so `iloc` stays right.
struct HEIFStripper {
    let bytes: FileBytes
    let groups: Set<StripGroup>

    static func recognises(_ start: [UInt8]) -> Bool { HEIFContainer.hasSignature(start) }

    func strip() throws -> ByteEdits {
        let container = try HEIFContainer(file: bytes.file)
        var edits = ByteEdits()
        for item in container.items.values.sorted(by: { $0.id < $1.id }) where item.type == "Exif" || item.type == "mime" {
            // An item whose extents lie outside what holds them is damage: passing over it would
            // write the file with whatever it holds.
            guard let ranges = container.fileRanges(of: item) else { throw StripError.truncated(what: "item \(item.id)", at: 0) }
            let data = try ranges.flatMap { try bytes.read($0, what: "item \(item.id)") }
            var scrubbed: [UInt8]
            if item.type == "Exif" {
                guard let tiff = HEIFContainer.tiffBlock(ofExifItem: data),
                      let (block, removed) = ExifScrubber.scrub(tiff, removing: groups) else { continue }
                scrubbed = Array(data[..<(data.count - tiff.count)]) + block
                edits.removed += removed
            } else {
                guard data[...].range(of: Array("<x:xmpmeta".utf8)) != nil else { continue }
                let (packet, removed) = XMPScrubber.scrub(data, removing: groups)
                scrubbed = packet
                edits.removed += removed
            }
            var position = 0
            for range in ranges {
                edits.overwrite(at: range.lowerBound, old: Array(data[position..<(position + range.count)]),
                                new: Array(scrubbed[position..<(position + range.count)]))
                position += range.count
            }
            try edits.checkHeld()
        }
        edits.append(try QuickTimeStripper(bytes: bytes, groups: groups).strip(0..<bytes.size))
        return edits
    }
}
