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

    /// Moves past bytes up to, not including, the next line end.
    mutating func skipRestOfLine() throws {
        while let byte = try peek(), byte != UInt8(ascii: "\n") { advance() }
    }
}
