import FileIO
import Testing
import TestSupport
@testable import BinaryArrays

/// Records of 8 bytes read as doubles, as dump-doubles reads them.
@Suite struct RecordReaderTests {
    static func bytes(of values: [Double], order: ByteOrder) -> [UInt8] {
        values.flatMap { value in
            withUnsafeBytes(of: order.fileBytes(ofHostValue: value.bitPattern)) { Array($0) }
        }
    }

    /// Which doubles to read: the byte order, bytes passed over, the most values.
    struct Selection {
        var byteOrder = ByteOrder.little
        var offset = 0
        var count: Int?
    }

    static func reader<Source: ByteSource>(_ source: Source, _ selection: Selection) -> RecordReader<Source> {
        RecordReader(source: source, stride: 8, offset: selection.offset, count: selection.count)
    }

    static func decodeAll<Source: ByteSource>(_ source: Source, _ selection: Selection) throws -> ([Double], DoubleDecodingError?) {
        var reader = reader(source, selection)
        var values: [Double] = []
        let trailing = try reader.forEachBlock { bytes, count in
            for index in 0..<count {
                let raw = bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
                values.append(Double(bitPattern: selection.byteOrder.hostValue(ofFileBytes: raw)))
            }
        }
        return (values, trailing)
    }

    /// Values cut across reads at every position come out whole and in order.
    @Test(arguments: [ByteOrder.little, .big], 1...9)
    func valuesSplitAcrossReads(order: ByteOrder, stepLimit: Int) throws {
        var generator = SplitMix64(seed: UInt64(stepLimit))
        let values = (0..<1000).map { _ in Double(bitPattern: generator.next()) }
        let source = TrickleSource([0xAB, 0xCD] + Self.bytes(of: values, order: order) + [1, 2, 3], stepLimit: stepLimit)
        let (decoded, trailing) = try Self.decodeAll(source, Selection(byteOrder: order, offset: 2))
        #expect(decoded.map(\.bitPattern) == values.map(\.bitPattern))
        #expect(trailing == .trailingBytes(count: 3, offset: 8002, wholeValues: 1000))
    }

    /// More values than one block, stopped by --count inside the second block.
    @Test func countStopsInsideALaterBlock() throws {
        let values = (0..<20_000).map(Double.init)
        let count = Self.reader(MemoryByteSource([]), Selection()).blockCapacity + 17
        let (decoded, trailing) = try Self.decodeAll(MemoryByteSource(Self.bytes(of: values, order: .little)),
                                                     Selection(count: count))
        #expect(decoded == Array(values[..<count]))
        #expect(trailing == nil)
    }

    @Test func precheckSeesTrailingBytesAndOffsetsOfKnownLengths() throws {
        let bytes = [UInt8](repeating: 0, count: 21)
        #expect(try Self.reader(MemoryByteSource(bytes), Selection()).precheck()
            == .trailingBytes(count: 5, offset: 16, wholeValues: 2))
        #expect(try Self.reader(MemoryByteSource(bytes), Selection(offset: 5)).precheck() == nil)
        #expect(try Self.reader(MemoryByteSource(bytes), Selection(count: 2)).precheck() == nil)
        #expect(throws: DoubleDecodingError.offsetPastEnd(offset: 22, length: 21)) {
            try Self.reader(MemoryByteSource(bytes), Selection(offset: 22)).precheck()
        }
        #expect(try Self.reader(TrickleSource(bytes), Selection()).precheck() == nil)
    }

    @Test func offsetPastTheEndOfAStream() throws {
        #expect(throws: DoubleDecodingError.offsetPastEnd(offset: 30, length: 21)) {
            try Self.decodeAll(TrickleSource([UInt8](repeating: 0, count: 21)), Selection(offset: 30))
        }
    }
}
