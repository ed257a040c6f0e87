/// A TIFF-headed EXIF block (the payload of a JPEG APP1 "Exif\0\0" segment after those six bytes,
/// or of a PNG eXIf chunk): the one reader and editor of EXIF. Read for the orientation; carried
/// from a picture to its crop, edited in place (nothing is moved, so offsets inside maker notes stay right): the orientation set to what the output's pixels
/// need, the pixel size set to the crop's, the embedded thumbnail unlinked, and tags removed
/// (`ExifBlock+Removal`), their values zeroed so that no coordinate stays in the file. Every offset is
/// checked against the block.
public struct ExifBlock: Sendable {
    public internal(set) var bytes: [UInt8]
    private let bigEndian: Bool

    static let orientationTag = 0x0112
    static let shortType = 3
    static let exifPointerTag = 0x8769
    static let gpsPointerTag = 0x8825
    static let pixelXTag = 0xA002
    static let pixelYTag = 0xA003
    static let thumbnailOffsetTag = 0x0201
    static let thumbnailLengthTag = 0x0202

    /// nil when the block is not a TIFF structure whose first directory can be read.
    public init?(_ bytes: [UInt8]) {
        guard let block = try? ExifBlock(checking: bytes), let ifd0 = block.firstDirectory, block.entries(of: ifd0) != nil else { return nil }
        self = block
    }

    /// The block as a TIFF structure: a byte order mark and 42, or what is wrong with it.
    public init(checking bytes: [UInt8]) throws(ExifError) {
        guard bytes.count >= 8 else { throw .tooShort(length: bytes.count) }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: throw .badByteOrderMark(found: Array(bytes[0..<2]))
        }
        self.bytes = bytes
        let magic = read16(2)!
        guard magic == 42 else { throw .badMagicNumber(found: magic) }
    }

    /// IFD0's orientation, or nil when it has no orientation tag. Where the tag stands more than
    /// once (phones write such files), the first whole entry wins. Every offset is checked against
    /// the block, so a hostile block can neither crash nor loop.
    public func orientation() throws(ExifError) -> Orientation? {
        guard let directory = firstDirectory, let entryCount = read16(directory) else {
            throw .offsetOutOfRange(offset: firstDirectory ?? 4, length: bytes.count)
        }
        for index in 0..<entryCount {
            let entry = directory + 2 + index * 12
            guard entry + 12 <= bytes.count else { throw .offsetOutOfRange(offset: entry, length: bytes.count) }
            guard read16(entry) == Self.orientationTag else { continue }
            let type = read16(entry + 2)!, count = read32(entry + 4)!
            guard type == Self.shortType, count == 1 else { throw .badOrientationEntry(type: type, count: count) }
            // A SHORT is left-justified in the 4-byte value field.
            let value = read16(entry + 8)!
            guard let orientation = Orientation(rawValue: value) else { throw .orientationOutOfRange(found: value) }
            return orientation
        }
        return nil
    }

    /// Sets IFD0's orientation tag, where it has one (without one, the picture is upright already).
    public mutating func setOrientation(_ orientation: Orientation) {
        guard let entry = entry(Self.orientationTag, in: firstDirectory), read16(entry + 2) == Self.shortType else { return }
        write16(entry + 8, orientation.rawValue)
    }

    /// Sets the Exif directory's pixel dimensions, SHORT or LONG as they are stored.
    public mutating func setPixelSize(width: Int, height: Int) {
        guard let exif = pointer(Self.exifPointerTag) else { return }
        for (tag, value) in [(Self.pixelXTag, width), (Self.pixelYTag, height)] {
            guard let entry = entry(tag, in: exif) else { continue }
            switch read16(entry + 2) {
            case 3 where value <= 0xFFFF: write16(entry + 8, value)
            case 4: write32(entry + 8, value)
            default: break
            }
        }
    }

    /// Removes IFD1, the embedded thumbnail of the whole picture: unlinked, and its bytes and the
    /// thumbnail's zeroed, so that a crop made to hide part of a photo does not carry all of it.
    public mutating func dropThumbnail() {
        guard let ifd0 = firstDirectory, let count = entries(of: ifd0) else { return }
        let next = ifd0 + 2 + count * 12
        if let ifd1 = read32(next), ifd1 != 0, entries(of: ifd1) != nil {
            if let start = entry(Self.thumbnailOffsetTag, in: ifd1).flatMap({ read32($0 + 8) }),
               let length = entry(Self.thumbnailLengthTag, in: ifd1).flatMap({ read32($0 + 8) }),
               start >= 0, length >= 0, start + length <= bytes.count {
                zero(start..<(start + length))
            }
            erase(directory: ifd1)
        }
        write32(next, 0)
    }

    /// Zeroes a directory's entries and the values they hold out of line, and its count.
    mutating func erase(directory: Int) {
        guard let count = entries(of: directory) else { return }
        for index in 0..<count {
            let entry = directory + 2 + index * 12
            if let (offset, length) = outOfLineValue(entry) { zero(offset..<(offset + length)) }
            zero(entry..<(entry + 12))
        }
        write16(directory, 0)
    }

    mutating func zero(_ range: Range<Int>) {
        for position in range { bytes[position] = 0 }
    }

    // MARK: Reading

    /// The Exif directory's pixel dimensions, where it states both.
    public var pixelSize: (width: Int, height: Int)? {
        guard let exif = pointer(Self.exifPointerTag),
              let x = entry(Self.pixelXTag, in: exif), let y = entry(Self.pixelYTag, in: exif) else { return nil }
        let value = { (entry: Int) in self.read16(entry + 2) == 3 ? self.read16(entry + 8) : self.read32(entry + 8) }
        guard let width = value(x), let height = value(y) else { return nil }
        return (width, height)
    }

    /// Whether IFD0 links a thumbnail directory (IFD1).
    public var hasThumbnail: Bool {
        guard let ifd0 = firstDirectory, let count = entries(of: ifd0), let next = read32(ifd0 + 2 + count * 12) else { return false }
        return next != 0
    }

    var firstDirectory: Int? { read32(4) }

    /// The offset of the directory a pointer tag of IFD0 names.
    func pointer(_ tag: Int) -> Int? {
        guard let entry = entry(tag, in: firstDirectory), let offset = read32(entry + 8), entries(of: offset) != nil else { return nil }
        return offset
    }

    /// The number of entries of the directory at `offset`, when all of them lie inside the block.
    func entries(of offset: Int) -> Int? {
        guard let count = read16(offset), offset + 2 + count * 12 + 4 <= bytes.count else { return nil }
        return count
    }

    func entry(_ tag: Int, in directory: Int?) -> Int? {
        guard let directory, let count = entries(of: directory) else { return nil }
        return (0..<count).lazy.map { directory + 2 + $0 * 12 }.first { read16($0) == tag }
    }

    /// Where an entry's value lies when it does not fit in the entry's 4 bytes.
    func outOfLineValue(_ entry: Int) -> (offset: Int, length: Int)? {
        let sizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8]
        guard let type = read16(entry + 2), let size = sizes[type], let count = read32(entry + 4),
              !count.multipliedReportingOverflow(by: size).overflow, count * size > 4,
              let offset = read32(entry + 8), offset + count * size <= bytes.count else { return nil }
        return (offset, count * size)
    }

    func read16(_ offset: Int) -> Int? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        let (a, b) = (Int(bytes[offset]), Int(bytes[offset + 1]))
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func read32(_ offset: Int) -> Int? {
        guard let first = read16(offset), let second = read16(offset + 2) else { return nil }
        return bigEndian ? first << 16 | second : second << 16 | first
    }

    mutating func write16(_ offset: Int, _ value: Int) {
        guard offset >= 0, offset + 2 <= bytes.count else { return }
        let (high, low) = (UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
        bytes[offset] = bigEndian ? high : low
        bytes[offset + 1] = bigEndian ? low : high
    }

    mutating func write32(_ offset: Int, _ value: Int) {
        let (high, low) = (value >> 16 & 0xFFFF, value & 0xFFFF)
        write16(offset, bigEndian ? high : low)
        write16(offset + 2, bigEndian ? low : high)
    }
}
