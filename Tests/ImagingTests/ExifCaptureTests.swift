import Testing
@testable import Imaging

/// EXIF's capture facts as probe reads them, from blocks built here entry by entry.
@Suite struct ExifCaptureTests {
    /// A little-endian TIFF block: IFD0 with `ifd0` entries, an Exif directory and a GPS directory,
    /// each entry (tag, type, values as bytes); values over 4 bytes are placed after the directories.
    static func block(ifd0: [(Int, Int, [UInt8])], exif: [(Int, Int, [UInt8])], gps: [(Int, Int, [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16 & 0xFFFF) }
        let sizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 10: 8]
        let directories = [ifd0 + [(0x8769, 4, []), (0x8825, 4, [])], exif, gps]
        var offsets: [Int] = []
        var at = 8
        for directory in directories {
            offsets.append(at)
            at += 2 + directory.count * 12 + 4
        }
        var data: [UInt8] = []
        for (index, directory) in directories.enumerated() {
            bytes += u16(directory.count)
            for (tag, type, value) in directory {
                var payload = value
                if tag == 0x8769 { payload = u32(offsets[1]) }
                if tag == 0x8825 { payload = u32(offsets[2]) }
                let count = type == 4 && (tag == 0x8769 || tag == 0x8825) ? 1 : payload.count / sizes[type]!
                bytes += u16(tag) + u16(type) + u32(count)
                if payload.count <= 4 {
                    bytes += payload + [UInt8](repeating: 0, count: 4 - payload.count)
                } else {
                    bytes += u32(at + data.count)
                    data += payload
                }
            }
            bytes += u32(0)
            _ = index
        }
        return bytes + data
    }

    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }
    static func rationals(_ values: [(Int, Int)]) -> [UInt8] {
        values.flatMap { numerator, denominator in
            [numerator, denominator].flatMap { value -> [UInt8] in
                let bits = UInt32(bitPattern: Int32(truncatingIfNeeded: value))
                return [UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24)]
            }
        }
    }

    @Test func aCameraPhotosDatePlaceAndCamera() throws {
        let block = Self.block(
            ifd0: [(0x010F, 2, Self.ascii("Cam  ")), (0x0110, 2, Self.ascii("Model 7")), (0x0131, 2, Self.ascii("Firmware 1.0"))],
            exif: [(0x9003, 2, Self.ascii("2024:02:29 23:59:58")), (0x9011, 2, Self.ascii("-0330")), (0x9291, 2, Self.ascii("1234567890123"))],
            gps: [(1, 2, Self.ascii("S")), (2, 5, Self.rationals([(33, 1), (51, 1), (2448, 100)])), (3, 2, Self.ascii("W")),
                  (4, 5, Self.rationals([(70, 1), (30, 1), (0, 1)])), (5, 1, [1]), (6, 5, Self.rationals([(35, 10)]))])
        let capture = try #require(ExifBlock(block)).capture
        #expect(capture.created == "2024-02-29T23:59:58.123456789-03:30")
        #expect(capture.make == "Cam" && capture.model == "Model 7" && capture.software == "Firmware 1.0")
        let position = try #require(capture.position)
        #expect(abs(position.latitude + (33 + 51.0 / 60 + 24.48 / 3600)) < 1e-12)
        #expect(position.longitude == -70.5 && position.altitude == -3.5)
    }

    /// A signed rational's own sign is not the hemisphere: exiftool reads -33 S as 33 S, and so does probe.
    @Test func theHemisphereGivesTheSign() throws {
        let block = Self.block(ifd0: [], exif: [],
                               gps: [(1, 2, Self.ascii("S")), (2, 10, Self.rationals([(-33, 1), (0, 1), (0, 1)])), (3, 2, Self.ascii("E")),
                                     (4, 10, Self.rationals([(-70, 1), (0, 1), (0, 1)]))])
        let position = try #require(ExifBlock(block)?.capture.position)
        #expect(position.latitude == -33 && position.longitude == 70)
    }

    @Test(arguments: ["2024:05:01 99:99:99", "2023:02:29 10:00:00", "0000:00:00 00:00:00", "2024:13:01 10:00:00", "    :  :     :  :  ",
                      "2024-05-01 10:00:00"])
    func datesThatAreNone(text: String) throws {
        let block = Self.block(ifd0: [], exif: [(0x9003, 2, Self.ascii(text))], gps: [])
        #expect(try #require(ExifBlock(block)).capture.created == nil)
    }

    @Test func positionsOffTheEarthAndZeroDenominatorsAreNone() throws {
        for gps in [[(2, 5, Self.rationals([(255, 1), (0, 1), (0, 1)])), (4, 5, Self.rationals([(10, 1), (0, 1), (0, 1)]))],
                    [(2, 5, Self.rationals([(45, 0), (0, 1), (0, 1)])), (4, 5, Self.rationals([(10, 1), (0, 1), (0, 1)]))]] {
            let block = Self.block(ifd0: [], exif: [], gps: gps)
            #expect(try #require(ExifBlock(block)).capture.position == nil)
        }
    }
}
