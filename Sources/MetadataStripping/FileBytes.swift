import Glibc

import FileIO

/// Reading a file's metadata where it lies: a few structures, each read whole and bounded, never
/// the file's pictures or samples.
struct FileBytes {
    let file: InputFile
    let size: Int
    /// The file's first bytes, read once: where a photo's metadata stands, so that a JPEG's
    /// segments cost one read, not two each.
    private let head: [UInt8]
    static let headLength = 128 << 10

    /// The largest structure read into memory at once: a JPEG segment is at most 64 KiB, real
    /// `moov` boxes and HEIF `meta` boxes some MiB (an hour of video's index is about 10).
    static let structureLimit = 64 << 20

    init(_ file: InputFile) throws(StripError) {
        guard let size = file.size else { throw .notAFile }
        self.file = file
        self.size = size
        var head = [UInt8](repeating: 0, count: min(size, Self.headLength))
        do {
            let got = try head.withUnsafeMutableBytes { try file.read(at: 0, into: $0) }
            head.removeLast(head.count - got)
        } catch {
            head = []
        }
        self.head = head
    }

    /// The bytes of `range`, which must lie in the file and within the limit.
    func read(_ range: Range<Int>, what: String) throws -> [UInt8] {
        guard range.lowerBound >= 0, range.upperBound <= size else { throw StripError.truncated(what: what, at: range.lowerBound) }
        guard range.count <= Self.structureLimit else { throw StripError.metadataTooLarge(what: what, bytes: range.count, limit: Self.structureLimit) }
        if range.upperBound <= head.count { return Array(head[range]) }
        var bytes = [UInt8](repeating: 0, count: range.count)
        let got = try bytes.withUnsafeMutableBytes { try file.read(at: range.lowerBound, into: $0) }
        guard got == range.count else { throw StripError.changedWhileRead(expected: size, found: range.lowerBound + got) }
        return bytes
    }

    /// Where `pattern` first stands at or after `offset`, read a MiB at a time (each piece overlapping
    /// the last by the pattern's length less one); nil when it does not.
    func find(_ pattern: [UInt8], from offset: Int) throws -> Int? {
        let piece = 1 << 20
        var start = offset
        while start + pattern.count <= size {
            let chunk = try read(start..<min(size, start + piece), what: "the file")
            if let found = chunk[...].range(of: pattern) { return start + found.lowerBound }
            if start + piece >= size { return nil }
            start += piece - (pattern.count - 1)
        }
        return nil
    }

    /// Up to `count` bytes at `offset`, fewer at the end of the file.
    func peek(at offset: Int, count: Int) throws -> [UInt8] {
        // Past the end (a structure whose size led there): nothing, never a range turned inside out.
        guard offset >= 0, offset < size else { return [] }
        return try read(offset..<min(size, offset + count), what: "a header")
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

extension ArraySlice where Element == UInt8 {
    /// Where `needle` first stands: its first byte found by memchr, the rest compared (the
    /// standard library's generic search cost a tenth of a JPEG's strip).
    func range(of needle: [UInt8]) -> Range<Int>? {
        guard let first = needle.first, needle.count <= count else { return nil }
        return withUnsafeBytes { haystack -> Range<Int>? in
            guard let base = haystack.baseAddress else { return nil }
            var offset = 0
            while offset + needle.count <= haystack.count,
                  let found = memchr(base + offset, Int32(first), haystack.count - needle.count + 1 - offset) {
                offset = UnsafeRawPointer(found) - base
                if memcmp(found, needle, needle.count) == 0 { return (startIndex + offset)..<(startIndex + offset + needle.count) }
                offset += 1
            }
            return nil
        }
    }
}
