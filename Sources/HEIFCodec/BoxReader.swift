/// Big-endian fields read from a span of bytes, every read checked against its end: a hostile
/// count or size ends in an error, never a read outside.
struct BoxReader {
    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int

    init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        position = start
        self.end = min(end ?? bytes.count, bytes.count)
    }

    var remaining: Int { end - position }

    mutating func unsigned(_ size: Int) throws(HEIFError) -> Int {
        guard size >= 0, size <= 8, remaining >= size else { throw .truncatedBox(type: "field", size: size, room: remaining) }
        var value = 0
        for index in 0..<size { value = value << 8 | Int(bytes[position + index]) }
        position += size
        return value
    }

    mutating func u8() throws(HEIFError) -> Int { try unsigned(1) }
    mutating func u16() throws(HEIFError) -> Int { try unsigned(2) }
    mutating func u32() throws(HEIFError) -> Int { try unsigned(4) }

    mutating func fourCC() throws(HEIFError) -> String {
        guard remaining >= 4 else { throw .truncatedBox(type: "type", size: 4, room: remaining) }
        defer { position += 4 }
        return String(decoding: bytes[position..<(position + 4)], as: UTF8.self)
    }

    /// The version and flags of a full box.
    mutating func fullBoxHeader() throws(HEIFError) -> (version: Int, flags: Int) {
        let word = try u32()
        return (word >> 24, word & 0xFF_FFFF)
    }

    mutating func skip(_ count: Int) throws(HEIFError) {
        guard count >= 0, remaining >= count else { throw .truncatedBox(type: "field", size: count, room: remaining) }
        position += count
    }

    /// Skips a NUL-terminated string (or the rest, when it has no NUL).
    mutating func skipString() {
        while position < end, bytes[position] != 0 { position += 1 }
        if position < end { position += 1 }
    }

    /// The child boxes from here to the end: type, where the box starts, where its payload starts and where it ends.
    mutating func boxes() throws(HEIFError) -> [(type: String, start: Int, payload: Int, end: Int)] {
        var found: [(type: String, start: Int, payload: Int, end: Int)] = []
        while remaining >= 8 {
            let start = position
            var size = try u32()
            let type = try fourCC()
            if size == 1 { size = try unsigned(8) } else if size == 0 { size = end - start }
            let payload = position
            guard size >= payload - start, size <= end - start else {
                throw .truncatedBox(type: type, size: size, room: end - start)
            }
            found.append((type, start, payload, start + size))
            position = start + size
        }
        return found
    }
}
