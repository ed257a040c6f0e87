import FileIO

/// Reading a file's metadata where it lies: a few structures, each read whole and bounded, never
/// the file's pictures or samples.
struct FileBytes {
    let file: InputFile
    let size: Int

    /// The largest structure read into memory at once: a JPEG segment is at most 64 KiB, real
    /// `moov` boxes and HEIF `meta` boxes some MiB (an hour of video's index is about 10).
    static let structureLimit = 64 << 20

    init(_ file: InputFile) throws(StripError) {
        guard let size = file.size else { throw .notAFile }
        self.file = file
        self.size = size
    }

    /// The bytes of `range`, which must lie in the file and within the limit.
    func read(_ range: Range<Int>, what: String) throws -> [UInt8] {
        guard range.lowerBound >= 0, range.upperBound <= size else { throw StripError.truncated(what: what, at: range.lowerBound) }
        guard range.count <= Self.structureLimit else { throw StripError.metadataTooLarge(what: what, bytes: range.count, limit: Self.structureLimit) }
        var bytes = [UInt8](repeating: 0, count: range.count)
        let got = try bytes.withUnsafeMutableBytes { try file.read(at: range.lowerBound, into: $0) }
        guard got == range.count else { throw StripError.changedWhileRead(expected: size, found: range.lowerBound + got) }
        return bytes
    }

    /// Up to `count` bytes at `offset`, fewer at the end of the file.
    func peek(at offset: Int, count: Int) throws -> [UInt8] {
        try read(offset..<min(size, offset + count), what: "a header")
    }
}

extension Array where Element == UInt8 {
    func bigEndian(at offset: Int, count: Int) -> Int {
        self[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    func littleEndian(at offset: Int, count: Int) -> Int {
        self[offset..<(offset + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}

/// A four-character code as text, each byte one character (`©xyz`'s 0xA9 is ©).
func fourCC(_ bytes: some Collection<UInt8>) -> String {
    String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
}
