/// A box of an MP4 or QuickTime movie (ISO BMFF), in bytes read whole: its type and where its
/// header, payload and end lie. Children are walked where they lie, never listed: a `moov` of
/// 8-byte boxes would make a list five times its size.
struct MovieBox {
    let type: String
    /// Offsets into the bytes walked.
    let start: Int
    let payload: Int
    let end: Int

    /// The box at `at` in `bytes`, its size within `limit` bytes (a size of 0 runs to the limit);
    /// nil where its header is cut or its size lies.
    static func at(_ at: Int, in bytes: [UInt8], limit: Int) -> MovieBox? {
        guard at >= 0, at + 8 <= bytes.count else { return nil }
        var size = bytes.bigEndian(at: at, count: 4)
        var header = 8
        if size == 1 {
            guard at + 16 <= bytes.count else { return nil }
            size = bytes.bigEndian(at: at + 8, count: 8)
            header = 16
        } else if size == 0 {
            size = limit
        }
        guard size >= header, size <= limit else { return nil }
        return MovieBox(type: fourCC(bytes[(at + 4)..<(at + 8)]), start: at, payload: at + header, end: at + size)
    }

    /// The boxes inside this one from `first` (its payload unless said: a full box's children
    /// follow its version and flags, a sample description's its fields).
    func children(in bytes: [UInt8], from first: Int? = nil) -> UnfoldSequence<MovieBox, Int> {
        let end = min(end, bytes.count)
        return sequence(state: first ?? payload) { at in
            guard let child = MovieBox.at(at, in: bytes, limit: end - at) else { return nil }
            at = child.end
            return child
        }
    }

    /// The first child of `type`.
    func child(_ type: String, in bytes: [UInt8]) -> MovieBox? {
        children(in: bytes).first { $0.type == type }
    }

    /// The payload's unsigned big-endian number of `count` bytes at `offset` into it; nil past the box.
    func number(at offset: Int, count: Int, in bytes: [UInt8]) -> Int? {
        guard offset >= 0, payload + offset + count <= min(end, bytes.count) else { return nil }
        return bytes.bigEndian(at: payload + offset, count: count)
    }
}

extension MovieBox {
    /// Whether the boxes from `first` (the payload unless said) fill this one exactly: no bytes
    /// that are no box, no box whose size runs past it.
    /// And no box of a 32-bit size under 8 (0 runs to the parent's end, 1 says a 64-bit size):
    /// readers of sample descriptions read those each their own way (exiftool as 8 bytes).
    func isTiled(in bytes: [UInt8], from first: Int? = nil) -> Bool {
        var at = first ?? payload
        for child in children(in: bytes, from: first) {
            guard bytes.bigEndian(at: child.start, count: 4) >= 8 else { return false }
            at = child.end
        }
        return at == min(end, bytes.count)
    }
}
