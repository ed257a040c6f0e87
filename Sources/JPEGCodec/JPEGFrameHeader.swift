/// The frame header (SOFn) of a JPEG file, found by walking its marker segments.
public enum JPEGFrameHeader {
    /// Rewrites the number of lines of a sequential Huffman frame (SOF0 or SOF1) to `rows`, so that a
    /// decoder stops there; false (nothing changed) for any other frame, a file whose segments do
    /// not lead to one, or one with restart intervals (DRI): the data skipped after the cut holds
    /// restart markers, and bytes skipped before a restart marker are how corrupt data shows, which
    /// must stay an error.
    public static func cutHeight(of file: inout [UInt8], to rows: Int) -> Bool {
        guard rows > 0, rows <= 0xFFFF, file.count >= 4, file[0] == 0xFF, file[1] == 0xD8 else { return false }
        var at = 2
        var frame: Int?
        while at + 4 <= file.count {
            guard file[at] == 0xFF else { return false }
            let marker = file[at + 1]
            if marker == 0xFF { at += 1; continue }
            let length = Int(file[at + 2]) << 8 | Int(file[at + 3])
            guard length >= 2, at + 2 + length <= file.count else { return false }
            switch marker {
            case 0xC0, 0xC1:
                // length, precision, then the number of lines, big-endian.
                guard length >= 8 else { return false }
                frame = at
                at += 2 + length
            case 0xDD:
                return false
            case 0xDA:
                guard let frame else { return false }
                file[frame + 5] = UInt8(rows >> 8)
                file[frame + 6] = UInt8(rows & 0xFF)
                return true
            case 0xC2...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                return false
            default:
                at += 2 + length
            }
        }
        return false
    }
}
