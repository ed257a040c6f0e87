import PNGCodec

/// A PNG's metadata chunks: `eXIf` edited in place, XMP (`iTXt` `XML:com.adobe.xmp`) blanked
/// in place, and the text chunks that hold a whole EXIF, XMP or IPTC block as ImageMagick writes
/// them ("Raw profile type ..."), or a compressed XMP, removed whole: nothing in a PNG points at
/// a chunk, so one may go. Each chunk changed gets its CRC again; image data is never read.
struct PNGStripper {
    let bytes: FileBytes
    let groups: Set<StripGroup>

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let xmpKeyword = Array("XML:com.adobe.xmp".utf8)
    static let rawProfilePrefix = Array("Raw profile type ".utf8)

    static func recognises(_ start: [UInt8]) -> Bool { start.starts(with: signature) }

    func strip() throws -> ByteEdits {
        var edits = ByteEdits()
        var index = Self.signature.count
        while index + 12 <= bytes.size {
            let head = try bytes.peek(at: index, count: 8)
            let length = head.bigEndian(at: 0, count: 4)
            let type = fourCC(head[4..<8])
            let end = index + 12 + length
            guard length <= Int(Int32.max), end <= bytes.size else { throw StripError.truncated(what: "the \(type) chunk", at: index) }
            if ["eXIf", "iTXt", "tEXt", "zTXt"].contains(type) {
                let data = try bytes.read((index + 8)..<(index + 8 + length), what: "the \(type) chunk")
                edits.append(scrub(type: type, data: data, at: index, end: end))
                try edits.checkHeld()
            }
            index = end
            if type == "IEND" { return edits }
        }
        // A PNG ends with IEND: one cut short is damaged, and strip writes no part of a file.
        throw StripError.truncated(what: "the PNG's chunks", at: index)
    }

    /// The edit of one chunk at `at` (ending at `end`).
    private func scrub(type: String, data: [UInt8], at: Int, end: Int) -> ByteEdits {
        var edits = ByteEdits()
        let keyword = data.prefix { $0 != 0 }
        if type == "eXIf" {
            // Some writers keep JPEG's "Exif\0\0" before the TIFF header.
            let skip = data.starts(with: JPEGStripper.exifSignature) ? JPEGStripper.exifSignature.count : 0
            if let (scrubbed, removed) = ExifScrubber.scrub(Array(data[skip...]), removing: groups), !removed.isEmpty {
                edits.replace(at..<end, with: Self.chunk(type: type, data: Array(data[..<skip]) + scrubbed), current: [])
                edits.removed += removed
            }
        } else if type != "iTXt", keyword.elementsEqual(Self.xmpKeyword) {
            // XMP in tEXt (Latin-1 text after the keyword's NUL) blanked in place; in zTXt, compressed, removed whole.
            if type == "zTXt" {
                edits.delete(at..<end)
                edits.removed.append("XMP:compressed packet")
            } else {
                let (scrubbed, removed) = XMPScrubber.scrub(Array(data[(keyword.count + 1)...]), removing: groups)
                if !removed.isEmpty {
                    edits.replace(at..<end, with: Self.chunk(type: type, data: Array(data[...keyword.count]) + scrubbed), current: [])
                    edits.removed += removed
                }
            }
        } else if type != "eXIf", let group = XMPScrubber.group(of: Substring(String(decoding: keyword, as: UTF8.self)), bindings: [:]) ?? Self.placeKeyword(keyword),
                  groups.contains(group) {
            // A text chunk whose keyword says what it holds: `Location`, `GPSLatitude` (exiftool reads them as tags).
            edits.delete(at..<end)
            edits.removed.append("PNG:\(String(decoding: keyword, as: UTF8.self))")
        } else if keyword.starts(with: Self.rawProfilePrefix) {
            // A hex dump of a whole block, compressed or not: gone whole, orientation with it.
            let profile = String(decoding: keyword.dropFirst(Self.rawProfilePrefix.count), as: UTF8.self)
            if ["exif", "app1", "xmp", "iptc", "8bim"].contains(profile.lowercased()) {
                edits.delete(at..<end)
                edits.removed.append("PNG:Raw profile type \(profile)")
            }
        } else if type == "iTXt", keyword.elementsEqual(Self.xmpKeyword) {
            // Keyword, NUL, compression flag and method, language, NUL, translated keyword, NUL, text.
            guard data.count > keyword.count + 2 else { return edits }
            var index = keyword.count + 3
            for _ in 0..<2 { index = (data[min(index, data.count)...].firstIndex(of: 0) ?? data.count) + 1 }
            guard index <= data.count else { return edits }
            if data[keyword.count + 1] != 0 {
                edits.delete(at..<end)
                edits.removed.append("XMP:compressed packet")
                return edits
            }
            let (scrubbed, removed) = XMPScrubber.scrub(Array(data[index...]), removing: groups)
            guard !removed.isEmpty else { return edits }
            edits.replace(at..<end, with: Self.chunk(type: type, data: Array(data[..<index]) + scrubbed), current: [])
            edits.removed += removed
        }
        return edits
    }

    /// A text keyword that names a place.
    static func placeKeyword(_ keyword: some Collection<UInt8>) -> StripGroup? {
        let lowered = String(decoding: keyword, as: UTF8.self).lowercased()
        return ["location", "city", "country", "address"].contains { lowered.contains($0) } ? .location : nil
    }

    /// A whole chunk: length, type, data and CRC.
    static func chunk(type: String, data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = PNGChunks.checksum(body)
        let length = data.count
        return [UInt8(length >> 24 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
            + [UInt8(crc >> 24 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }
}
