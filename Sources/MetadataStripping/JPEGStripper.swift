/// A JPEG's metadata segments, up to its first scan: EXIF and XMP (extended XMP's chunks joined)
/// edited in place, IPTC's resource block rewritten. Pictures inside it stripped too: the MPF
/// images after its end (a depth map, a gain map) and a Motion Photo's video, each where its own
/// offsets say, all of them in place.
struct JPEGStripper {
    let bytes: FileBytes
    let groups: Set<StripGroup>

    static let exifSignature = Array("Exif\0\0".utf8)
    static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    /// What some writers put instead, which exiftool reads as XMP too.
    static let shortXMPSignature = Array("XMP\0".utf8)
    static let extendedXMPSignature = Array("http://ns.adobe.com/xmp/extension/\0".utf8)
    static let photoshopSignature = Array("Photoshop 3.0\0".utf8)
    static let mpfSignature = Array("MPF\0".utf8)

    static func recognises(_ start: [UInt8]) -> Bool { start.starts(with: [0xFF, 0xD8, 0xFF]) }

    /// One APPn segment's payload, after its marker and length.
    private struct Segment {
        let marker: UInt8
        let payloadAt: Int
        let payload: [UInt8]
    }

    /// The edits of the JPEG that starts at `start`, and where it ends (after its EOI); `keepsLength`:
    /// nothing may move (a picture inside another, or one whose MPF offsets count past its segments).
    func strip(at start: Int = 0, keepsLength: Bool = false, depth: Int = 0) throws -> (edits: ByteEdits, end: Int) {
        let (segments, scan) = try metadataSegments(at: start)
        var edits = ByteEdits()
        var extended: [Segment] = []
        let hasMPF = segments.contains { $0.marker == 0xE2 && $0.payload.starts(with: Self.mpfSignature) }
        for segment in segments {
            let payload = segment.payload
            switch segment.marker {
            case 0xE1 where payload.starts(with: Self.exifSignature.prefix(5)) && payload.count > 6:
                let header = Self.exifSignature.count
                if let (scrubbed, removed) = ExifScrubber.scrub(Array(payload[header...]), removing: groups) {
                    edits.overwrite(at: segment.payloadAt + header, old: Array(payload[header...]), new: scrubbed)
                    edits.removed += removed
                }
            case 0xE1 where payload.starts(with: Self.xmpSignature) || payload.starts(with: Self.shortXMPSignature):
                let header = payload.starts(with: Self.xmpSignature) ? Self.xmpSignature.count : Self.shortXMPSignature.count
                let packet = Array(payload[header...])
                let (scrubbed, removed) = XMPScrubber.scrub(packet, removing: groups)
                edits.overwrite(at: segment.payloadAt + header, old: packet, new: scrubbed)
                edits.removed += removed
            case 0xE1 where payload.starts(with: Self.extendedXMPSignature):
                extended.append(segment)
            case 0xED where payload.starts(with: Self.photoshopSignature):
                let header = Self.photoshopSignature.count
                let fixed = keepsLength || hasMPF
                let block = Array(payload[header...])
                guard let (scrubbed, removed) = IPTCScrubber.scrub(block, removing: groups, keepsLength: fixed), !removed.isEmpty,
                      !fixed || scrubbed.count == block.count, header + scrubbed.count + 2 <= 0xFFFF else { continue }
                let length = header + scrubbed.count + 2
                edits.replace((segment.payloadAt - 2)..<(segment.payloadAt + payload.count),
                              with: [UInt8(length >> 8), UInt8(length & 0xFF)] + Self.photoshopSignature + scrubbed, current: [])
                edits.removed += removed
            default:
                break
            }
        }
        edits.append(scrubExtendedXMP(extended))
        let end = pictureEnd(scan: scan)
        if depth == 0 { edits.append(try stripTrailing(from: end)) }
        return (edits, end)
    }

    /// Where the picture ends: after its EOI (0xFF 0xD9 stands nowhere in entropy-coded data);
    /// without one, at the file's end.
    private func pictureEnd(scan: Int?) -> Int {
        scan.flatMap { try? bytes.find([0xFF, 0xD9], from: $0) }.map { $0 + 2 } ?? bytes.size
    }

    /// Where the JPEG that starts the file ends (after its EOI).
    func end() throws -> Int {
        pictureEnd(scan: try metadataSegments(at: 0).scan)
    }

    /// What follows the picture: MPF's pictures (a depth map, a gain map), a Motion Photo's video,
    /// or anything else appended, each stripped where it lies (nothing moves). A JPEG or an MP4 is
    /// found by its signature; bytes that are neither are zeroed, since what they hold cannot be
    /// told (a second photo with its position was appended to a first).
    private func stripTrailing(from start: Int) throws -> ByteEdits {
        var edits = ByteEdits()
        var index = start
        while index < bytes.size {
            let head = try bytes.peek(at: index, count: 8)
            if Self.recognises(head) {
                let inner = try strip(at: index, keepsLength: true, depth: 1)
                edits.append(inner.edits)
                index = max(inner.end, index + 3)
            } else if head.count == 8, head[4..<8].elementsEqual("ftyp".utf8) {
                // A video runs to the file's end: its boxes say where each ends.
                edits.append(try QuickTimeStripper(bytes: bytes, groups: groups).strip(index..<bytes.size))
                break
            } else {
                let next = [try bytes.find([0xFF, 0xD8, 0xFF], from: index + 1), try bytes.find(Array("ftyp".utf8), from: index + 1).map { $0 - 4 }]
                    .compactMap { $0 }.filter { $0 > index }.min() ?? bytes.size
                let old = try bytes.read(index..<next, what: "the bytes after the picture")
                if old.contains(where: { $0 != 0 }) {
                    edits.overwrite(at: index, old: old, new: [UInt8](repeating: 0, count: old.count))
                    edits.removed.append("JPEG:TrailingData")
                }
                index = next
            }
        }
        return edits
    }

    /// The APPn segments from SOI to the first SOS (or EOI), each read whole (at most 64 KiB).
    private func metadataSegments(at start: Int) throws -> (segments: [Segment], scan: Int?) {
        var segments: [Segment] = []
        var held = 0
        var index = start + 2
        while true {
            let head = try bytes.peek(at: index, count: 4)
            guard head.count == 4 else { throw StripError.truncated(what: "a JPEG segment", at: index) }
            if head[0] != 0xFF {
                // Stray bytes between segments (a real camera file has "hello" after its COM):
                // skipped to the next marker, as libjpeg and exiftool skip them.
                let window = try bytes.peek(at: index, count: 1 << 16)
                guard let next = window.firstIndex(of: 0xFF) else { throw StripError.truncated(what: "a JPEG segment", at: index) }
                index += next
                continue
            }
            // Fill bytes (0xFF) may stand before a marker.
            if head[1] == 0xFF { index += 1; continue }
            let marker = head[1]
            if marker == 0xDA { return (segments, index) }
            if marker == 0xD9 { return (segments, nil) }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { index += 2; continue }
            let length = head.bigEndian(at: 2, count: 2)
            guard length >= 2 else { throw StripError.truncated(what: "a JPEG segment", at: index) }
            // Only the segments strip edits, or reads for MPF, are held; all of them within what
            // strip holds at once (a file of APP1s is not held whole).
            if [0xE1, 0xE2, 0xED].contains(marker) {
                held += length
                guard held <= FileBytes.structureLimit else {
                    throw StripError.metadataTooLarge(what: "the JPEG's metadata segments", bytes: held, limit: FileBytes.structureLimit)
                }
                segments.append(Segment(marker: marker, payloadAt: index + 4, payload: try bytes.read((index + 4)..<(index + 2 + length), what: "a JPEG segment")))
            }
            index += 2 + length
        }
    }

    /// Extended XMP's chunks joined in their order, scrubbed, and written back where each was.
    private func scrubExtendedXMP(_ segments: [Segment]) -> ByteEdits {
        var edits = ByteEdits()
        // GUID (32), full length (4), this chunk's offset (4), then the chunk.
        let header = Self.extendedXMPSignature.count + 40
        let chunks = segments.filter { $0.payload.count > header }
            .sorted { $0.payload.bigEndian(at: header - 4, count: 4) < $1.payload.bigEndian(at: header - 4, count: 4) }
        guard !chunks.isEmpty else { return edits }
        let joined = chunks.flatMap { $0.payload[header...] }
        let (scrubbed, removed) = XMPScrubber.scrub(joined, removing: groups)
        var position = 0
        for chunk in chunks {
            let count = chunk.payload.count - header
            edits.overwrite(at: chunk.payloadAt + header, old: Array(chunk.payload[header...]), new: Array(scrubbed[position..<(position + count)]))
            position += count
        }
        edits.removed += removed
        return edits
    }
}
