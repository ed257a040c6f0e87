import FileIO

/// The bytes of a text source one at a time, with the line and column of the next one, read in
/// fixed chunks so that memory stays constant however long the text is.
struct TextCursor<Source: ByteSource> {
    private var source: Source
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var position = 0
    private var end = 0
    /// Where the next byte stands, both from 1; the column counts bytes.
    private(set) var line = 1
    private(set) var column = 1
    /// A token was taken since the last line end.
    private var tokenOnLine = false

    init(source: Source) {
        self.source = source
    }

    /// The next byte without moving past it; nil at the end.
    @inline(__always)
    mutating func peek() throws -> UInt8? {
        if position == end {
            position = 0
            end = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if end == 0 { return nil }
        }
        return chunk[position]
    }

    /// Moves past the byte `peek` returned.
    @inline(__always)
    mutating func advance() {
        if chunk[position] == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else {
            column += 1
        }
        position += 1
    }

    /// Moves past separators, then takes the bytes up to the next separator into `token` (at most
    /// `limit`: past it, false with `token` full); nil at the end of the text. `sawLineEnd` is set
    /// when a line end was passed; `followsEmptyValue` when a comma came with no value after it before
    /// this token on its line (`1,,2`, `,2`), or a line before it ended with empty cells (`4,,`),
    /// where the CSV cells left empty would shift the values after them (empty cells after the
    /// text's last value, as a dump pads its last row, are no such thing). Works a chunk at a time: this is the text parsers' hot loop.
    mutating func takeToken(into token: inout [UInt8], limit: Int, sawLineEnd: inout Bool, followsEmptyValue: inout Bool,
                            startLine: inout Int, startColumn: inout Int) throws -> Bool? {
        token.removeAll(keepingCapacity: true)
        // Separators, and the commas among them since the last value or line end.
        var commas = 0
        // A line whose last cells were empty (`4,,`) is a short row unless no value follows it (a
        // dump pads its last row so): a value after it would fill that row's fields.
        var shortRowBefore = false
        var tokenOnLine = self.tokenOnLine
        defer { self.tokenOnLine = tokenOnLine }
        while true {
            if position == end {
                position = 0
                end = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
                if end == 0 { return nil }
            }
            let stop = chunk.withUnsafeBufferPointer { bytes -> Int in
                var index = position
                while index < end {
                    let byte = bytes[index]
                    guard isTextSeparator(byte) else { break }
                    if byte == UInt8(ascii: "\n") {
                        line += 1
                        column = 1
                        sawLineEnd = true
                        if commas >= 1 && tokenOnLine { shortRowBefore = true }
                        commas = 0
                        tokenOnLine = false
                    } else {
                        if byte == UInt8(ascii: ",") { commas += 1 }
                        column += 1
                    }
                    index += 1
                }
                return index
            }
            position = stop
            if position < end { break }
        }
        followsEmptyValue = shortRowBefore || commas >= 2 || (commas == 1 && !tokenOnLine)
        tokenOnLine = true
        startLine = line
        startColumn = column
        // The token, maybe across chunks.
        while true {
            let (stop, full) = chunk.withUnsafeBufferPointer { bytes -> (Int, Bool) in
                var index = position
                let room = limit - token.count
                let last = min(end, position + room)
                while index < last, !isTextSeparator(bytes[index]) { index += 1 }
                token.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<index]))
                return (index, index == last && last < end && !isTextSeparator(bytes[index]))
            }
            column += stop - position
            position = stop
            if full { return false }
            if position < end { return true }
            position = 0
            end = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if end == 0 { return true }
            if token.count == limit, !isTextSeparator(chunk[0]) { return false }
        }
    }

    /// Moves past bytes up to, not including, the next line end.
    mutating func skipRestOfLine() throws {
        while let byte = try peek(), byte != UInt8(ascii: "\n") { advance() }
    }
}

/// What separates values in text: spaces, commas, tabs and line ends.
@inline(__always)
func isTextSeparator(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") || (byte >= 0x09 && byte <= 0x0D)
}
