import FileIO
import Testing
import TestSupport
@testable import BinaryArrays

@Suite struct DoubleReaderTests {
    static func bytes(of values: [Double], order: ByteOrder) -> [UInt8] {
        values.flatMap { value in
            withUnsafeBytes(of: order.fileBytes(ofHostValue: value.bitPattern)) { Array($0) }
        }
    }

    static func decodeAll<Source: ByteSource>(_ source: Source, _ selection: DoubleSelection) throws -> ([Double], DoubleDecodingError?) {
        var reader = DoubleReader(source: source, selection: selection)
        var values: [Double] = []
        let trailing = try reader.forEachBlock { values.append(contentsOf: $0) }
        return (values, trailing)
    }

    /// Values cut across reads at every position come out whole and in order.
    @Test(arguments: [ByteOrder.little, .big], 1...9)
    func valuesSplitAcrossReads(order: ByteOrder, stepLimit: Int) throws {
        var generator = SplitMix64(seed: UInt64(stepLimit))
        let values = (0..<1000).map { _ in Double(bitPattern: generator.next()) }
        let source = TrickleSource([0xAB, 0xCD] + Self.bytes(of: values, order: order) + [1, 2, 3], stepLimit: stepLimit)
        let (decoded, trailing) = try Self.decodeAll(source, DoubleSelection(byteOrder: order, offset: 2))
        #expect(decoded.map(\.bitPattern) == values.map(\.bitPattern))
        #expect(trailing == .trailingBytes(count: 3, offset: 8002, wholeValues: 1000))
    }

    /// More values than one block, stopped by --count inside the second block.
    @Test func countStopsInsideALaterBlock() throws {
        let values = (0..<20_000).map(Double.init)
        let count = DoubleReader<MemoryByteSource>.blockCapacity + 17
        let (decoded, trailing) = try Self.decodeAll(MemoryByteSource(Self.bytes(of: values, order: .little)),
                                                     DoubleSelection(count: count))
        #expect(decoded == Array(values[..<count]))
        #expect(trailing == nil)
    }

    @Test func precheckSeesTrailingBytesAndOffsetsOfKnownLengths() throws {
        let bytes = [UInt8](repeating: 0, count: 21)
        #expect(try DoubleReader(source: MemoryByteSource(bytes), selection: DoubleSelection()).precheck()
            == .trailingBytes(count: 5, offset: 16, wholeValues: 2))
        #expect(try DoubleReader(source: MemoryByteSource(bytes), selection: DoubleSelection(offset: 5)).precheck() == nil)
        #expect(try DoubleReader(source: MemoryByteSource(bytes), selection: DoubleSelection(count: 2)).precheck() == nil)
        #expect(throws: DoubleDecodingError.offsetPastEnd(offset: 22, length: 21)) {
            try DoubleReader(source: MemoryByteSource(bytes), selection: DoubleSelection(offset: 22)).precheck()
        }
        #expect(try DoubleReader(source: TrickleSource(bytes), selection: DoubleSelection()).precheck() == nil)
    }

    @Test func offsetPastTheEndOfAStream() throws {
        #expect(throws: DoubleDecodingError.offsetPastEnd(offset: 30, length: 21)) {
            try Self.decodeAll(TrickleSource([UInt8](repeating: 0, count: 21)), DoubleSelection(offset: 30))
        }
    }
}
