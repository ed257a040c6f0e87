/// Reads the orientation tag (0x0112) of IFD0 from a TIFF-headed EXIF block: the payload of a JPEG
/// APP1 "Exif\0\0" segment after those six bytes, or of a PNG eXIf chunk. Every offset is checked
/// against the block, so a hostile block can neither crash nor loop.
public enum ExifOrientation {
    static let orientationTag = 0x0112
    static let shortType = 3

    /// The orientation, or nil when IFD0 has no orientation tag. Where the tag stands more than
    /// once (phones write such files), the first whole entry wins.
    public static func read(tiff bytes: [UInt8]) throws(ExifError) -> Orientation? {
        guard bytes.count >= 8 else { throw .tooShort(length: bytes.count) }
        let bigEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: throw .badByteOrderMark(found: Array(bytes[0..<2]))
        }
        func unsigned16(_ offset: Int) throws(ExifError) -> Int {
            guard offset >= 0, offset + 2 <= bytes.count else { throw .offsetOutOfRange(offset: offset, length: bytes.count) }
            let (a, b) = (Int(bytes[offset]), Int(bytes[offset + 1]))
            return bigEndian ? a << 8 | b : b << 8 | a
        }
        func unsigned32(_ offset: Int) throws(ExifError) -> Int {
            let (high, low) = bigEndian ? (try unsigned16(offset), try unsigned16(offset + 2))
                                        : (try unsigned16(offset + 2), try unsigned16(offset))
            return high << 16 | low
        }
        let magic = try unsigned16(2)
        guard magic == 42 else { throw .badMagicNumber(found: magic) }
        let directory = try unsigned32(4)
        let entryCount = try unsigned16(directory)
        for index in 0..<entryCount {
            let entry = directory + 2 + index * 12
            guard entry + 12 <= bytes.count else { throw .offsetOutOfRange(offset: entry, length: bytes.count) }
            guard try unsigned16(entry) == orientationTag else { continue }
            let type = try unsigned16(entry + 2)
            let count = try unsigned32(entry + 4)
            guard type == shortType, count == 1 else { throw .badOrientationEntry(type: type, count: count) }
            // A SHORT is left-justified in the 4-byte value field.
            let value = try unsigned16(entry + 8)
            guard let orientation = Orientation(rawValue: value) else { throw .orientationOutOfRange(found: value) }
            return orientation
        }
        return nil
    }

    /// A minimal big-endian TIFF block holding only the orientation, for writing into PNG eXIf.
    public static func tiff(for orientation: Orientation) -> [UInt8] {
        [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,
         0x00, 0x01,
         0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, UInt8(orientation.rawValue), 0x00, 0x00,
         0x00, 0x00, 0x00, 0x00]
    }
}
