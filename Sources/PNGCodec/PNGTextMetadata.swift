import CZlib

/// Metadata carried in a PNG's text chunks, as other tools write it: ImageMagick's "Raw profile
/// type exif" (the APP1 EXIF block in hex), in place of eXIf, and the XMP packet (whose
/// `tiff:Orientation` Pillow reads too). Photos that went through ImageMagick carry the first.
struct PNGTextMetadata {
    /// The TIFF block of a "Raw profile type exif" (or "APP1") text.
    var rawProfileExif: [UInt8]?
    /// The XMP packet of an iTXt "XML:com.adobe.xmp" chunk.
    var xmp: [UInt8]?

    /// Texts longer than this are not read: metadata, never worth a megabyte.
    static let textLimit = 1 << 20

    /// Takes what a tEXt, zTXt or iTXt chunk says, when its keyword is one of ours.
    mutating func take(chunk type: String, data: [UInt8]) {
        guard let nul = data.firstIndex(of: 0) else { return }
        let keyword = String(decoding: data[..<nul], as: UTF8.self)
        let isRawProfile = keyword == "Raw profile type exif" || keyword == "Raw profile type APP1"
        guard isRawProfile || keyword == "XML:com.adobe.xmp" else { return }
        guard let text = Self.text(of: type, data: data, afterKeyword: nul + 1) else { return }
        if isRawProfile {
            if rawProfileExif == nil { rawProfileExif = Self.exif(fromRawProfile: text) }
        } else if xmp == nil {
            xmp = text
        }
    }

    private static func text(of type: String, data: [UInt8], afterKeyword start: Int) -> [UInt8]? {
        switch type {
        case "tEXt":
            return Array(data[start...])
        case "zTXt":
            guard start < data.count, data[start] == 0 else { return nil }
            return inflate(Array(data[(start + 1)...]))
        case "iTXt":
            // compression flag, method, language tag NUL, translated keyword NUL, text
            guard start + 2 <= data.count else { return nil }
            let compressed = data[start] == 1
            var at = start + 2
            for _ in 0..<2 {
                guard let nul = data[at...].firstIndex(of: 0) else { return nil }
                at = nul + 1
            }
            let body = Array(data[at...])
            return compressed ? inflate(body) : body
        default:
            return nil
        }
    }

    /// "\nexif\n   LENGTH\nHEX HEX ...": the bytes after the third line, from hex; the "Exif\0\0"
    /// header of an APP1 segment dropped.
    static func exif(fromRawProfile text: [UInt8]) -> [UInt8]? {
        var lines = 0
        var bytes: [UInt8] = []
        var high: UInt8?
        for character in text {
            if lines < 3 {
                if character == UInt8(ascii: "\n") { lines += 1 }
                continue
            }
            let nibble: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = character - UInt8(ascii: "A") + 10
            default: continue
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        let header: [UInt8] = Array("Exif".utf8) + [0, 0]
        if bytes.starts(with: header) { bytes.removeFirst(header.count) }
        return bytes.isEmpty ? nil : bytes
    }

    /// zlib data inflated, at most `textLimit` bytes; nil when it is not whole zlib data.
    static func inflate(_ compressed: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: textLimit)
        var input = compressed
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = destination.baseAddress
                stream.avail_out = uInt(destination.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
