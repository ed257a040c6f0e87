/// A WebP's `EXIF` and `XMP ` chunks, edited in place (RIFF chunks carry no checksum).
struct WebPStripper {
    let bytes: FileBytes
    let groups: Set<StripGroup>

    static func recognises(_ start: [UInt8]) -> Bool {
        start.count >= 12 && start[0..<4].elementsEqual("RIFF".utf8) && start[8..<12].elementsEqual("WEBP".utf8)
    }

    func strip() throws -> ByteEdits {
        var edits = ByteEdits()
        // To the file's end, whatever the RIFF size says: exiftool reads chunks past a RIFF size
        // cut short, and so must this.
        let riffEnd = bytes.size
        var index = 12
        while index + 8 <= riffEnd {
            let head = try bytes.peek(at: index, count: 8)
            let type = fourCC(head[0..<4])
            let length = head.littleEndian(at: 4, count: 4)
            let payload = index + 8
            guard length <= riffEnd - payload else { throw StripError.truncated(what: "the \(type) chunk", at: index) }
            if type == "EXIF" {
                let data = try bytes.read(payload..<(payload + length), what: "the EXIF chunk")
                // Some writers keep JPEG's "Exif\0\0" before the TIFF header.
                let skip = data.starts(with: JPEGStripper.exifSignature) ? JPEGStripper.exifSignature.count : 0
                if let (scrubbed, removed) = ExifScrubber.scrub(Array(data[skip...]), removing: groups) {
                    edits.overwrite(at: payload + skip, old: Array(data[skip...]), new: scrubbed)
                    edits.removed += removed
                }
            } else if type == "XMP " {
                let data = try bytes.read(payload..<(payload + length), what: "the XMP chunk")
                let (scrubbed, removed) = XMPScrubber.scrub(data, removing: groups)
                edits.overwrite(at: payload, old: data, new: scrubbed)
                edits.removed += removed
            }
            try edits.checkHeld()
            index = payload + length + length % 2
        }
        return edits
    }
}
