import FileIO

/// An Android Motion Photo: a JPEG or HEIC whose XMP says that a video follows the picture in the
/// same file (Google's Motion Photo format 1.0: `Container:Directory` with a `MotionPhoto` item
/// and its `Item:Length`; the older `GCamera:MicroVideoOffset`), counted from the file's end.
/// What probe reports; strip does not trust it, and finds what follows a picture by its bytes.
public enum MotionPhoto {
    /// The video's byte range in a file of `fileSize` bytes, as the XMP `packet` states it.
    public static func video(describedBy packet: [UInt8], fileSize: Int) -> Range<Int>? {
        var length: Int?
        if let semantic = packet[...].range(of: Array("Item:Semantic=\"MotionPhoto\"".utf8)) {
            // The Length of the item whose Semantic is MotionPhoto: among its element's attributes.
            let itemStart = packet[..<semantic.lowerBound].lastIndex(of: UInt8(ascii: "<")) ?? semantic.lowerBound
            let itemEnd = packet[semantic.upperBound...].firstIndex(of: UInt8(ascii: ">")) ?? packet.count
            length = attribute("Item:Length", in: packet[itemStart..<itemEnd])
        } else if let semantic = packet[...].range(of: Array("<Item:Semantic>MotionPhoto<".utf8)) {
            // The element form: the Length among the same list item's elements.
            let itemStart = packet[..<semantic.lowerBound].indices.last { packet[$0...].starts(with: "<rdf:li".utf8) } ?? semantic.lowerBound
            let itemEnd = packet[semantic.upperBound...].range(of: Array("</rdf:li>".utf8))?.lowerBound ?? packet.count
            length = attribute("Item:Length", in: packet[itemStart..<itemEnd])
        }
        if length == nil { length = attribute("GCamera:MicroVideoOffset", in: packet[...]) }
        guard let length, length > 8, length < fileSize else { return nil }
        return (fileSize - length)..<fileSize
    }

    /// How far into a file `mayHoldVideo` looks: past a camera JPEG's EXIF (its maker notes and
    /// thumbnail, some tens of KiB) to the XMP after it.
    static let markersSought = 256 << 10

    /// Whether the file's first bytes name a Motion Photo's video (Google's XMP names, which no
    /// other picture has): what a worker that is to make its preview must load. A lie costs a
    /// worker that loads FFmpeg; markers past the bytes sought, a preview (said in a warning).
    public static func mayHoldVideo(_ file: InputFile) -> Bool {
        var bytes = [UInt8](repeating: 0, count: min(file.size ?? 0, markersSought))
        guard let got = try? bytes.withUnsafeMutableBytes({ try file.read(at: 0, into: $0) }) else { return false }
        let start = bytes[..<got]
        return ["GCamera:MotionPhoto", "GCamera:MicroVideo", "Semantic=\"MotionPhoto\"", "Semantic>MotionPhoto<"].contains {
            start.range(of: Array($0.utf8)) != nil
        }
    }

    /// The whole number value of `name="N"` in `text`, or of the element `<name>N</name>`.
    static func attribute(_ name: String, in text: ArraySlice<UInt8>) -> Int? {
        guard let found = text.range(of: Array((name + "=\"").utf8)) ?? text.range(of: Array((name + ">").utf8)) else { return nil }
        let digits = text[found.upperBound...].prefix { $0 >= 0x30 && $0 <= 0x39 }.prefix(18)
        return digits.isEmpty ? nil : digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
