import HEIFCodec

/// A HEIC's or AVIF's `Exif` and XMP (`mime`) items, edited where their extents lie; a Motion
/// Photo's video after the picture, as its XMP says. Items keep their lengths, so `iloc` stays right.
struct HEIFStripper {
    let bytes: FileBytes
    let groups: Set<StripGroup>

    static func recognises(_ start: [UInt8]) -> Bool { HEIFContainer.hasSignature(start) }

    func strip() throws -> ByteEdits {
        let container = try HEIFContainer(file: bytes.file)
        var edits = ByteEdits()
        var motionVideo: Range<Int>?
        for item in container.items.values.sorted(by: { $0.id < $1.id }) where item.type == "Exif" || item.type == "mime" {
            guard let ranges = container.fileRanges(of: item) else { continue }
            let data = try ranges.flatMap { try bytes.read($0, what: "item \(item.id)") }
            var scrubbed: [UInt8]
            if item.type == "Exif" {
                guard let tiff = HEIFContainer.tiffBlock(ofExifItem: data),
                      let (block, removed) = ExifScrubber.scrub(tiff, removing: groups) else { continue }
                scrubbed = Array(data[..<(data.count - tiff.count)]) + block
                edits.removed += removed
            } else {
                guard data[...].range(of: Array("<x:xmpmeta".utf8)) != nil else { continue }
                motionVideo = MotionPhoto.video(describedBy: data, fileSize: bytes.size)
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
        }
        if let motionVideo { edits.append(try MotionPhoto.strip(motionVideo, in: bytes, removing: groups)) }
        return edits
    }
}
