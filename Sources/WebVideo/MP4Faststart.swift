import FileIO
import Glibc

/// Moves an MP4's `moov` before its media data, in the file itself, as FFmpeg's `faststart`
/// does: a browser then starts playing after the first bytes, where a `moov` at the end makes it
/// wait for the whole file (or ask for its end first). FFmpeg's own option reopens its output by
/// name, which a confined worker cannot; this works on the descriptor the worker was given.
///
/// The muxer writes `ftyp`, the media data, then `moov`. The bytes from the media data to the
/// `moov` move forward by the `moov`'s size (read and written back from the end, a piece at a
/// time: the memory is the `moov` and one piece), the `moov` goes where they began, and each
/// chunk offset in it (`stco`, `co64`) grows by that size.
public enum MP4Faststart {
    /// The most a `moov` this writes may take: the muxer's own for hours of video are a few MB.
    static let mostMovieBytes = 256 << 20
    /// The piece moved at a time.
    static let pieceBytes = 4 << 20

    /// The top-level boxes of the file: type, where the box starts, and its size.
    struct TopLevelBox {
        let type: String
        let start: Int
        let size: Int
    }

    /// Rewrites the MP4 in `descriptor` (readable and writable, `size` bytes) with its `moov`
    /// first; a file whose `moov` is first already is left as it is. `target` names it in errors.
    public static func moveMovieFirst(in descriptor: Int32, size: Int, target: String) throws {
        let boxes = try topLevelBoxes(in: descriptor, size: size, target: target)
        guard let movie = boxes.first(where: { $0.type == "moov" }),
              let data = boxes.first(where: { $0.type == "mdat" }) else {
            throw FaststartError.notAnMP4(target: target)
        }
        if movie.start < data.start { return }
        guard movie.size <= mostMovieBytes else { throw FaststartError.movieTooLarge(bytes: movie.size, target: target) }
        var header = [UInt8](repeating: 0, count: movie.size)
        try readAll(&header, from: descriptor, at: movie.start, target: target)
        try shiftChunkOffsets(in: &header, by: movie.size, target: target)
        // What lies between the media data's start and the `moov` moves forward by its size.
        let first = data.start
        var end = movie.start
        var piece = [UInt8](repeating: 0, count: min(pieceBytes, max(1, end - first)))
        while end > first {
            let count = min(piece.count, end - first)
            let from = end - count
            try piece.withUnsafeMutableBytes { raw in
                try readAll(UnsafeMutableRawBufferPointer(rebasing: raw[0..<count]), from: descriptor, at: from, target: target)
                try FileSystem.writeAll(UnsafeRawBufferPointer(rebasing: raw[0..<count]), to: descriptor, at: from + movie.size, target: target)
            }
            end = from
        }
        try FileSystem.writeAll(header, to: descriptor, at: first, target: target)
    }

    /// The file's top-level boxes, each whole inside the file.
    static func topLevelBoxes(in descriptor: Int32, size: Int, target: String) throws -> [TopLevelBox] {
        var boxes: [TopLevelBox] = []
        var offset = 0
        var header = [UInt8](repeating: 0, count: 16)
        while offset + 8 <= size {
            try readAll(&header[0..<8], from: descriptor, at: offset, target: target)
            var boxSize = Int(bigEndian: header, at: 0, bytes: 4)
            if boxSize == 1 {
                guard offset + 16 <= size else { throw FaststartError.notAnMP4(target: target) }
                try readAll(&header[8..<16], from: descriptor, at: offset + 8, target: target)
                boxSize = Int(bigEndian: header, at: 8, bytes: 8)
            } else if boxSize == 0 {
                boxSize = size - offset
            }
            guard boxSize >= 8, boxSize <= size - offset else { throw FaststartError.notAnMP4(target: target) }
            boxes.append(TopLevelBox(type: String(decoding: header[4..<8], as: UTF8.self), start: offset, size: boxSize))
            offset += boxSize
        }
        return boxes
    }

    /// The boxes on the way from a `moov` to its chunk offsets.
    static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl"]

    /// Adds `shift` to every chunk offset in the `moov` held in `movie`.
    static func shiftChunkOffsets(in movie: inout [UInt8], by shift: Int, target: String) throws {
        try walk(&movie, range: 8..<movie.count, shift: shift, target: target)
    }

    private static func walk(_ bytes: inout [UInt8], range: Range<Int>, shift: Int, target: String) throws {
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let size = Int(bigEndian: bytes, at: offset, bytes: 4)
            guard size >= 8, size <= range.upperBound - offset else { throw FaststartError.notAnMP4(target: target) }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if containers.contains(type) {
                try walk(&bytes, range: (offset + 8)..<(offset + size), shift: shift, target: target)
            } else if type == "stco" || type == "co64" {
                // Version and flags (4), the entry count (4), then the offsets.
                let width = type == "co64" ? 8 : 4
                guard size >= 16 else { throw FaststartError.notAnMP4(target: target) }
                let count = Int(bigEndian: bytes, at: offset + 12, bytes: 4)
                guard count <= (size - 16) / width else { throw FaststartError.notAnMP4(target: target) }
                for entry in 0..<count {
                    let at = offset + 16 + entry * width
                    let moved = Int(bigEndian: bytes, at: at, bytes: width) + shift
                    // The muxer writes 32-bit offsets only where every one fits; moved past 4 GiB
                    // they would need a `co64`, which this does not rebuild.
                    guard width == 8 || moved <= Int(UInt32.max) else { throw FaststartError.offsetsPast4GiB(target: target) }
                    for index in 0..<width { bytes[at + index] = UInt8(truncatingIfNeeded: moved >> (8 * (width - 1 - index))) }
                }
            }
            offset += size
        }
    }

    private static func readAll(_ bytes: inout [UInt8], from descriptor: Int32, at position: Int, target: String) throws {
        try bytes.withUnsafeMutableBytes { try readAll($0, from: descriptor, at: position, target: target) }
    }

    private static func readAll(_ bytes: inout ArraySlice<UInt8>, from descriptor: Int32, at position: Int, target: String) throws {
        try bytes.withUnsafeMutableBytes { try readAll($0, from: descriptor, at: position, target: target) }
    }

    private static func readAll(_ buffer: UnsafeMutableRawBufferPointer, from descriptor: Int32, at position: Int, target: String) throws {
        var done = 0
        while done < buffer.count {
            let read = try FileSystem.valueOrErrno("cannot read back \(target)") {
                pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(position + done))
            }
            if read == 0 { throw FaststartError.notAnMP4(target: target) }
            done += read
        }
    }
}

extension Int {
    /// The big-endian unsigned integer of `count` bytes at `offset` of `bytes`.
    init<Bytes: RandomAccessCollection>(bigEndian bytes: Bytes, at offset: Int, bytes count: Int) where Bytes.Element == UInt8, Bytes.Index == Int {
        var value = 0
        for index in 0..<count { value = value << 8 | Int(bytes[bytes.startIndex + offset + index]) }
        self = value
    }
}
