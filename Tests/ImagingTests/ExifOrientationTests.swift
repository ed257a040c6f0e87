import Imaging
import Testing

@Suite struct ExifOrientationTests {
    /// A TIFF block with IFD0 entries (tag, type, count, value) in either byte order.
    static func tiff(bigEndian: Bool, entries: [(Int, Int, Int, Int)], directoryOffset: Int = 8) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        var bytes: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(directoryOffset)
        bytes += [UInt8](repeating: 0, count: max(0, directoryOffset - 8))
        bytes += u16(entries.count)
        for (tag, type, count, value) in entries {
            bytes += u16(tag) + u16(type) + u32(count) + (type == 3 ? u16(value) + [0, 0] : u32(value))
        }
        return bytes + u32(0)
    }

    @Test(arguments: [false, true], 1...8)
    func everyOrientationInBothByteOrders(bigEndian: Bool, value: Int) throws {
        let bytes = Self.tiff(bigEndian: bigEndian, entries: [(0x010F, 2, 4, 0), (0x0112, 3, 1, value), (0x0131, 2, 4, 0)])
        #expect(try ExifOrientation.read(tiff: bytes) == Orientation(rawValue: value))
    }

    @Test func noTagIsNoOrientation() throws {
        #expect(try ExifOrientation.read(tiff: Self.tiff(bigEndian: false, entries: [(0x010F, 2, 4, 0)])) == nil)
    }

    @Test func theFirstOfDuplicatedEntriesWins() throws {
        let bytes = Self.tiff(bigEndian: true, entries: [(0x0112, 3, 1, 6), (0x0112, 3, 1, 3)])
        #expect(try ExifOrientation.read(tiff: bytes) == .rotate90Clockwise)
    }

    @Test func malformedBlocksAreErrorsNotCrashes() {
        #expect(throws: ExifError.tooShort(length: 3)) { try ExifOrientation.read(tiff: [0x49, 0x49, 0x2A]) }
        #expect(throws: ExifError.badByteOrderMark(found: [0x41, 0x42])) { try ExifOrientation.read(tiff: Array("AB*\0\0\0\0\u{8}".utf8)) }
        #expect(throws: ExifError.orientationOutOfRange(found: 9)) {
            try ExifOrientation.read(tiff: Self.tiff(bigEndian: false, entries: [(0x0112, 3, 1, 9)]))
        }
        #expect(throws: ExifError.badOrientationEntry(type: 4, count: 1)) {
            try ExifOrientation.read(tiff: Self.tiff(bigEndian: false, entries: [(0x0112, 4, 1, 6)]))
        }
        // IFD0 pointing past the end, and an entry count running past it.
        #expect(throws: ExifError.offsetOutOfRange(offset: 4000, length: 14)) {
            try ExifOrientation.read(tiff: Self.tiff(bigEndian: false, entries: [], directoryOffset: 4000).prefix(14).map { $0 })
        }
        var overlong = Self.tiff(bigEndian: false, entries: [(0x010F, 2, 4, 0)])
        overlong[8] = 200
        #expect(throws: ExifError.offsetOutOfRange(offset: 22, length: 26)) { try ExifOrientation.read(tiff: overlong) }
    }

    @Test func theWrittenBlockReadsBack() throws {
        for orientation in Orientation.allCases {
            #expect(try ExifOrientation.read(tiff: ExifOrientation.tiff(for: orientation)) == orientation)
        }
    }
}
