import FileIO

/// The directories a TIFF's capture metadata lives in (IFD0, its Exif and GPS directories), copied
/// out of the file into a small TIFF-headed block that `ExifBlock` reads: each directory and the
/// values it points to are read where they are, however large the file (a 36 MB scan's directories
/// lie after its pixels), and nothing else is read. Bounded per directory and per value, so a
/// header that lies about its counts costs a few kilobytes, not the file.
enum TIFFMetadata {
    /// Entries a directory may have: past it the directory is not read.
    static let mostEntries = 1024
    /// The largest value copied; a larger one (a maker note, an ICC profile) is left out.
    static let largestValue = 64 << 10

    /// The block, or nil when the file is no classic TIFF (BigTIFF's directories are not read).
    static func block(of file: InputFile) -> [UInt8]? {
        guard let header = read(file, at: 0, count: 8), header.count == 8 else { return nil }
        let bigEndian: Bool
        switch (header[0], header[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        var block = Relocation(bigEndian: bigEndian)
        guard block.integer(header, at: 2, size: 2) == 42 else { return nil }
        block.bytes = Array(header[0..<4]) + [0, 0, 0, 0]
        guard let first = block.copyDirectory(from: file, at: block.integer(header, at: 4, size: 4)) else { return nil }
        block.setInteger(first, at: 4, size: 4)
        // The Exif and GPS directories, where IFD0 points to them.
        for tag in [0x8769, 0x8825] {
            guard let entry = block.entry(tag, inDirectoryAt: first) else { continue }
            let old = block.integer(block.bytes, at: entry + 8, size: 4)
            if let copied = block.copyDirectory(from: file, at: old) {
                block.setInteger(copied, at: entry + 8, size: 4)
            } else {
                block.setInteger(0, at: entry + 4, size: 4)
            }
        }
        return block.bytes
    }

    private static func read(_ file: InputFile, at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        guard let got = try? bytes.withUnsafeMutableBytes({ try file.read(at: offset, into: $0) }), got == count else { return nil }
        return bytes
    }

    /// The block being built: directories appended, their offsets rewritten to the block's.
    private struct Relocation {
        let bigEndian: Bool
        var bytes: [UInt8] = []

        func integer(_ source: [UInt8], at offset: Int, size: Int) -> Int {
            (0..<size).reduce(0) { value, index in
                value | Int(source[offset + (bigEndian ? size - 1 - index : index)]) << (8 * index)
            }
        }

        mutating func setInteger(_ value: Int, at offset: Int, size: Int) {
            for index in 0..<size { bytes[offset + (bigEndian ? size - 1 - index : index)] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
        }

        /// The block offset of the entry of `tag` in the directory at `directory`; nil without one.
        func entry(_ tag: Int, inDirectoryAt directory: Int) -> Int? {
            let count = integer(bytes, at: directory, size: 2)
            return (0..<count).map { directory + 2 + $0 * 12 }.first { integer(bytes, at: $0, size: 2) == tag }
        }

        /// Bytes a value of TIFF `type` takes; 0 for a type not known.
        static func size(ofType type: Int) -> Int {
            switch type {
            case 1, 2, 6, 7: return 1
            case 3, 8: return 2
            case 4, 9, 11, 13: return 4
            case 5, 10, 12: return 8
            default: return 0
            }
        }

        /// Copies the directory at `offset` of `file` and the values it holds out of line; its
        /// offset in the block, or nil when it cannot be read. Its link to a next directory is cut.
        mutating func copyDirectory(from file: InputFile, at offset: Int) -> Int? {
            guard offset >= 8, let countBytes = TIFFMetadata.read(file, at: offset, count: 2) else { return nil }
            let count = integer(countBytes, at: 0, size: 2)
            guard count > 0, count <= TIFFMetadata.mostEntries,
                  let entries = TIFFMetadata.read(file, at: offset + 2, count: count * 12) else { return nil }
            let directory = bytes.count
            bytes += countBytes + entries + [0, 0, 0, 0]
            for index in 0..<count {
                let entry = directory + 2 + index * 12
                let (type, values) = (integer(bytes, at: entry + 2, size: 2), integer(bytes, at: entry + 4, size: 4))
                let (length, overflow) = Self.size(ofType: type).multipliedReportingOverflow(by: values)
                guard !overflow, length > 4 else { continue }
                // Out of line: copied after the directory, word-aligned, or left out (count 0).
                guard length <= TIFFMetadata.largestValue,
                      let value = TIFFMetadata.read(file, at: integer(bytes, at: entry + 8, size: 4), count: length) else {
                    setInteger(0, at: entry + 4, size: 4)
                    continue
                }
                if bytes.count % 2 == 1 { bytes.append(0) }
                setInteger(bytes.count, at: entry + 8, size: 4)
                bytes += value
            }
            return directory
        }
    }
}
