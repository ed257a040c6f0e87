import FileIO

/// What an MP4 (or MOV) says of its sample tables, read before FFmpeg builds its index from them:
/// FFmpeg gives every sample an index entry (24 bytes) however few bytes the file has, so a 23 KB
/// file whose track claims 40 million samples cost a gigabyte a worker. A file that is not
/// fragmented holds each of its samples, at a byte or more each: a table claiming more samples
/// than the file has bytes is a lie, refused here. Every box is read where it is, bounded by its
/// parent and the file; a walk of more boxes than any real file has stops.
enum MP4SampleTables {
    /// Boxes read at most, whatever the file claims.
    static let mostBoxes = 10_000

    /// Throws when a track of `file` claims more samples than the file can hold; nothing when the
    /// file is no MP4 or MOV, is fragmented, or its tables cannot be found (FFmpeg says why then).
    static func check(_ file: InputFile) throws(MP4Error) {
        guard let size = file.size, size >= 16 else { return }
        var walker = Walker(file: file, size: size)
        let top = walker.children(of: 0..<size)
        // A fragmented file's samples are in its fragments: its tables may be empty, or claim any count.
        guard top.contains(where: { ["ftyp", "moov", "mdat", "wide", "free"].contains($0.type) }),
              !top.contains(where: { $0.type == "moof" }),
              let moov = top.first(where: { $0.type == "moov" }) else { return }
        let moovChildren = walker.children(of: moov.content)
        if moovChildren.contains(where: { $0.type == "mvex" }) { return }
        for trak in moovChildren where trak.type == "trak" {
            guard let stbl = walker.path(["mdia", "minf", "stbl"], in: trak.content) else { continue }
            for box in walker.children(of: stbl.content) where box.type == "stsz" || box.type == "stz2" {
                // version and flags (4), then stsz: sample size (4) and count (4); stz2: reserved
                // and field size (4) and count (4).
                guard let count = walker.integer(at: box.content.lowerBound + 8, bytes: 4) else { continue }
                if count > size { throw .moreSamplesThanBytes(claimed: count, fileSize: size) }
            }
        }
    }

    private struct Box {
        let type: String
        let content: Range<Int>
    }

    private struct Walker {
        let file: InputFile
        let size: Int
        var read = 0
        /// The file's bytes from `windowStart`, read a window at a time: a box's header is 8
        /// bytes, and one read each took a system call per field (90 for a phone's clip).
        var window: [UInt8] = []
        var windowStart = 0
        static let windowSize = 16 << 10

        mutating func integer(at offset: Int, bytes count: Int) -> Int? {
            guard offset >= 0, count <= Self.windowSize, offset + count <= size else { return nil }
            if offset < windowStart || offset + count > windowStart + window.count {
                window = [UInt8](repeating: 0, count: min(Self.windowSize, size - offset))
                guard let got = try? window.withUnsafeMutableBytes({ try file.read(at: offset, into: $0) }) else {
                    window = []
                    return nil
                }
                window.removeLast(window.count - got)
                windowStart = offset
                guard got >= count else { return nil }
            }
            let start = offset - windowStart
            return window[start..<start + count].reduce(0) { $0 << 8 | Int($1) }
        }

        /// The boxes inside `range`, in order; fewer where one's size runs past it.
        mutating func children(of range: Range<Int>) -> [Box] {
            var boxes: [Box] = []
            var offset = range.lowerBound
            while offset + 8 <= range.upperBound, read < MP4SampleTables.mostBoxes {
                read += 1
                guard let declared = integer(at: offset, bytes: 4), let type = integer(at: offset + 4, bytes: 4) else { break }
                var header = 8
                var length = declared
                if declared == 1 {
                    guard let large = integer(at: offset + 8, bytes: 8) else { break }
                    (header, length) = (16, large)
                } else if declared == 0 {
                    length = range.upperBound - offset
                }
                guard length >= header, length <= range.upperBound - offset else { break }
                let name = String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: type >> (24 - 8 * $0)) }, as: UTF8.self)
                boxes.append(Box(type: name, content: (offset + header)..<(offset + length)))
                offset += length
            }
            return boxes
        }

        mutating func path(_ types: [String], in range: Range<Int>) -> Box? {
            var current: Box?
            var within = range
            for type in types {
                guard let found = children(of: within).first(where: { $0.type == type }) else { return nil }
                current = found
                within = found.content
            }
            return current
        }
    }
}

/// An MP4 or MOV whose tables say what the file cannot be.
public enum MP4Error: Error, Equatable, CustomStringConvertible {
    case moreSamplesThanBytes(claimed: Int, fileSize: Int)

    public var description: String {
        switch self {
        case .moreSamplesThanBytes(let claimed, let fileSize):
            return "a track claims \(claimed) samples, more than the file's \(fileSize) bytes can hold: refused"
        }
    }
}
