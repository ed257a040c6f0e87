import Foundation
import MediaToolKit
import Testing
import TestSupport

@Suite struct BinaryArrayTests {
    /// 1.5, -2 and 0.1 as IEEE 754 doubles, written out by hand in both byte orders.
    static let bigEndian: [UInt8] = [0x3F, 0xF8, 0, 0, 0, 0, 0, 0, 0xC0, 0, 0, 0, 0, 0, 0, 0, 0x3F, 0xB9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A]
    static var littleEndian: [UInt8] { stride(from: 0, to: 24, by: 8).flatMap { bigEndian[$0..<($0 + 8)].reversed() } }

    @Test func doublesInEitherByteOrderAtAnyAlignment() throws {
        #expect(try BinaryArray<Double>(Self.bigEndian, endianness: .big).elements == [1.5, -2, 0.1])
        #expect(try BinaryArray<Double>(Data(Self.littleEndian)).elements == [1.5, -2, 0.1])
        // Three bytes in: no double is aligned.
        let shifted = [1, 2, 3] + Self.littleEndian
        let array = try BinaryArray<Double>(Data(shifted).dropFirst(0), offset: 3)
        #expect(Array(array) == [1.5, -2, 0.1] && array[2] == 0.1)
        // A slice of Data starts at an index other than 0.
        #expect(try BinaryArray<Double>(Data(shifted)[3...]).elements == [1.5, -2, 0.1])
    }

    @Test func integersAndFloats() throws {
        #expect(try BinaryArray<UInt16>([0x01, 0x02, 0x03, 0x04], endianness: .big).elements == [0x0102, 0x0304])
        #expect(try BinaryArray<Int32>([0xFE, 0xFF, 0xFF, 0xFF]).elements == [-2])
        #expect(try BinaryArray<Float>([0, 0, 0xC0, 0x3F]).elements == [1.5])
        #expect(try BinaryArray<Float16>([0x00, 0x3E]).elements == [1.5])
        #expect(try BinaryArray<Int8>([0x80]).elements == [-128])
    }

    @Test func aFieldOfRecords() throws {
        // Records of 10 bytes: a big-endian u16 id, then a little-endian double.
        var bytes: [UInt8] = []
        for (id, value) in [(7, 1.5), (8, -2.0)] as [(UInt16, Double)] {
            bytes += [UInt8(id >> 8), UInt8(id & 0xFF)] + withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)
        }
        #expect(try BinaryArray<UInt16>(bytes, endianness: .big, stride: 10).elements == [7, 8])
        #expect(try BinaryArray<Double>(bytes, offset: 2, stride: 10).elements == [1.5, -2])
    }

    @Test func trailingBytesAreSaidAsTheCommandLineSaysThem() throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("five.bin").path
        let bytes = Self.littleEndian + [1, 2, 3, 4, 5]
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let run = try KitFixtures.tool(["dump-doubles", path])
        let line = String(decoding: run.standardError, as: UTF8.self).split(separator: "\n").first.map(String.init)
        #expect(throws: MediaError.self) { try BinaryArray<Double>(bytes) }
        do {
            _ = try BinaryArray<Double>(bytes)
        } catch {
            #expect(line == KitFixtures.asTheCommandLineSaysIt("mediatool: \(path): \(error.reason)"))
        }
        #expect(try BinaryArray<Double>(bytes, allowsTrailingBytes: true).count == 3)
        #expect(throws: MediaError.self) { try BinaryArray<Double>(bytes, offset: 40) }
        #expect(throws: MediaError.self) { try BinaryArray<Double>(bytes, stride: 4) }
        #expect(throws: MediaError.self) { try BinaryArray<Double>(bytes, count: 4) }
    }

    @Test func aFileInBlocksOfConstantSize() async throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("many.bin")
        let values = (0..<100_003).map { Double($0) * 0.5 - 7 }
        try Data(values.flatMap { withUnsafeBytes(of: $0.bitPattern.bigEndian, Array.init) }).write(to: url)
        var read: [Double] = []
        var largest = 0
        for try await block in BinaryArrayFile<Double>(.file(url), endianness: .big) {
            largest = max(largest, block.count)
            read += block.elements
        }
        #expect(read == values)
        #expect(largest == 8192)
        var fromTheMiddle: [Double] = []
        for try await block in BinaryArrayFile<Double>(.file(url), endianness: .big, offset: 8 * 10, count: 5, elementsPerBlock: 2) {
            fromTheMiddle += block.elements
        }
        #expect(fromTheMiddle == Array(values[10..<15]))
        await #expect(throws: MediaError.self) {
            for try await _ in BinaryArrayFile<Double>(.file(url), stride: 0) {}
        }
        try Data([1, 2, 3]).write(to: url)
        await #expect(throws: MediaError.self) {
            for try await _ in BinaryArrayFile<Double>(.file(url)) {}
        }
    }

    @Test func shortestTextIsTheCommandLineSText() throws {
        let values: [Double] = [0.1, 1.5, -2, 1e300, .leastNonzeroMagnitude, 100_000_000, 1.0 / 3, .infinity, -0.0]
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("v.bin")
        try Data(values.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }).write(to: url)
        let run = try KitFixtures.tool(["dump-doubles", url.path])
        let printed = String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(values.map(shortestRoundTripText) == printed)
        #expect(values.allSatisfy { $0.isInfinite || Double(shortestRoundTripText($0)) == $0 })
        #expect(shortestRoundTripText(Float(0.2)) == "0.2")
    }
}
