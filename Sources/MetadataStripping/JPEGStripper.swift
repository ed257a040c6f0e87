/// A JPEG's metadata segments, up to its first scan: EXIF and XMP (extended XMP's chunks joined)
/// edited in place, IPTC's resource block rewritten. Pictures inside it stripped too: the MPF
/// images after its end (a depth map, a gain map) and a Motion Photo's video, each where its own
/// offsets say, all of them in place.
struct JPEGStripper {
    let bytes: FileBytes
    let groups: Set<StripGroup>

    static let exifSignature = Array("Exif\0\0".utf8)
    static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
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

    /// The edits of the JPEG that starts at `start`; `keepsLength`: nothing may move (a picture
    /// inside another, or one whose MPF offsets count past its segments).
    func strip(at start: Int = 0, keepsLength: Bool = false, depth: Int = 0) throws -> ByteEdits {
        let segments = try metadataSegments(at: start)
        var edits = ByteEdits()
        var extended: [Segment] = []
        var trailing: [Range<Int>] = []
        var motionVideo: Range<Int>?
        let hasMPF = segments.contains { $0.marker == 0xE2 && $0.payload.starts(with: Self.mpfSignature) }
        for segment in segments {
            let payload = segment.payload
            switch segment.marker {
            case 0xE1 where payload.starts(with: Self.exifSignature):
                let header = Self.exifSignature.count
                if let (scrubbed, removed) = ExifScrubber.scrub(Array(payload[header...]), removing: groups) {
                    edits.overwrite(at: segment.payloadAt + header, old: Array(payload[header...]), new: scrubbed)
                    edits.removed += removed
                }
            case 0xE1 where payload.starts(with: Self.xmpSignature):
                let header = Self.xmpSignature.count
                let packet = Array(payload[header...])
                motionVideo = MotionPhoto.video(describedBy: packet, fileSize: bytes.size)
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
            case 0xE2 where payload.starts(with: Self.mpfSignature):
                trailing += mpfImages(in: segment)
            default:
                break
            }
        }
        edits.append(scrubExtendedXMP(extended))
        // Pictures inside pictures: one level is what phones write; a deeper chain is a decoy.
        if depth == 0 {
            for image in trailing where Self.recognises(try bytes.peek(at: image.lowerBound, count: 3)) {
                edits.append(try strip(at: image.lowerBound, keepsLength: true, depth: depth + 1))
            }
            if let motionVideo { edits.append(try MotionPhoto.strip(motionVideo, in: bytes, removing: groups)) }
        }
        return edits
    }

    /// The APPn segments from SOI to the first SOS (or EOI), each read whole (at most 64 KiB).
    private func metadataSegments(at start: Int) throws -> [Segment] {
        var segments: [Segment] = []
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
            if marker == 0xDA || marker == 0xD9 { return segments }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { index += 2; continue }
            let length = head.bigEndian(at: 2, count: 2)
            guard length >= 2 else { throw StripError.truncated(what: "a JPEG segment", at: index) }
            if (0xE0...0xEF).contains(marker) {
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

    /// The byte ranges of the images an MPF segment lists besides the first (offsets count from its
    /// TIFF header), those inside the file.
    private func mpfImages(in segment: Segment) -> [Range<Int>] {
        let tiff = Array(segment.payload.dropFirst(Self.mpfSignature.count))
        guard tiff.count >= 8 else { return [] }
        let little = tiff[0] == 0x49
        let read = { (at: Int, count: Int) -> Int? in
            guard at >= 0, at + count <= tiff.count else { return nil }
            return little ? tiff.littleEndian(at: at, count: count) : tiff.bigEndian(at: at, count: count)
        }
        guard let ifd = read(4, 4), let count = read(ifd, 2) else { return [] }
        let headerAt = segment.payloadAt + Self.mpfSignature.count
        for index in 0..<min(count, 64) {
            let entry = ifd + 2 + index * 12
            // MPEntry (0xB002): 16 bytes an image: attributes, size, offset, two dependents.
            guard read(entry, 2) == 0xB002, let length = read(entry + 4, 4), let at = read(entry + 8, 4) else { continue }
            return stride(from: 0, to: min(length / 16, 16), by: 1).compactMap { image in
                guard let size = read(at + image * 16 + 4, 4), let offset = read(at + image * 16 + 8, 4), offset > 0,
                      headerAt + offset + size <= bytes.size else { return nil }
                return (headerAt + offset)..<(headerAt + offset + size)
            }
        }
        return []
    }
}
