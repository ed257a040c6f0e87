import Testing
import TestSupport
@testable import BinaryArrays

@Suite struct DoubleStatisticsTests {
    static func statistics(_ values: [Double]) -> DoubleStatistics {
        var statistics = DoubleStatistics()
        values.withUnsafeBufferPointer { statistics.add($0) }
        return statistics
    }

    @Test func countsEveryClass() {
        let s = Self.statistics([0, -0.0, .leastNonzeroMagnitude, -Double(bitPattern: 0x0000_1268_8B70_E62B), 1, .nan, .infinity, -.infinity, -.infinity])
        #expect(s.count == 9)
        #expect(s.finiteCount == 5)
        #expect(s.zeroCount == 2)
        #expect(s.subnormalCount == 2)
        #expect(s.nanCount == 1)
        #expect(s.positiveInfinityCount == 1)
        #expect(s.negativeInfinityCount == 2)
        #expect(s.minimum == -Double(bitPattern: 0x0000_1268_8B70_E62B))
        #expect(s.maximum == 1)
    }

    /// Naive sums of squares overflow near 1e308 and underflow near 1e-308.
    @Test func extremeMagnitudesNeitherOverflowNorUnderflow() {
        let huge = Self.statistics([1e308, -1e308, 1e308, -1e308])
        #expect(huge.mean == 0)
        #expect(huge.standardDeviation == 1e308)

        let tiny = Self.statistics([0, 0, 3e-300, 5e-300])
        #expect(tiny.mean == 2e-300)
        #expect(tiny.standardDeviation.map { abs($0 - 2.1213203435596424e-300) < Double(bitPattern: 0x0000_0000_78A4_2205) } == true)
    }

    @Test func meanAndDeviationOfAKnownSet() {
        let s = Self.statistics([2, 4, 4, 4, 5, 5, 7, 9])
        #expect(s.mean == 5)
        #expect(s.standardDeviation == 2)
    }

    @Test func noFiniteValueMeansNoMean() {
        let s = Self.statistics([.nan, .infinity])
        #expect(s.mean == nil && s.standardDeviation == nil && s.minimum == nil)
        #expect(DoubleStatisticsReport.json(s).text.contains("\"mean\":null"))
    }
}

/// Statistics merged block by block agree with those of one pass (to rounding), and the counts,
/// the minimum and the maximum exactly.
@Suite struct DoubleStatisticsMergeTests {
    @Test(arguments: [1, 7, 1000, 4096])
    func mergedBlocksAgreeWithOnePass(blockSize: Int) {
        var generator = SplitMix64(seed: UInt64(blockSize))
        let values: [Double] = (0..<10_000).map { index in
            switch index % 500 {
            case 3: return .nan
            case 5: return -.infinity
            case 8: return 0
            default: return Double(Int64(bitPattern: generator.next() >> 12)) * 1e-6 + (index < 5000 ? 1e9 : -3)
            }
        }
        var whole = DoubleStatistics()
        values.withUnsafeBufferPointer { whole.add($0) }
        var merged = DoubleStatistics()
        for start in stride(from: 0, to: values.count, by: blockSize) {
            var block = DoubleStatistics()
            values[start..<min(values.count, start + blockSize)].withUnsafeBufferPointer { block.add($0) }
            merged.merge(block)
        }
        #expect(merged.count == whole.count && merged.finiteCount == whole.finiteCount)
        #expect(merged.nanCount == whole.nanCount && merged.negativeInfinityCount == whole.negativeInfinityCount)
        #expect(merged.zeroCount == whole.zeroCount)
        #expect(merged.minimum == whole.minimum && merged.maximum == whole.maximum)
        #expect(abs(merged.mean! - whole.mean!) <= 1e-9 * abs(whole.mean!))
        #expect(abs(merged.standardDeviation! - whole.standardDeviation!) <= 1e-9 * whole.standardDeviation!)
    }

    /// Scales far apart (1e-300 and 1e300) meet without overflow or underflow.
    @Test func blocksOfFarApartScalesMerge() {
        var small = DoubleStatistics()
        [1e-300, 3e-300].withUnsafeBufferPointer { small.add($0) }
        var large = DoubleStatistics()
        [1e300, 3e300].withUnsafeBufferPointer { large.add($0) }
        var merged = small
        merged.merge(large)
        #expect(merged.mean == 1e300)
        #expect(merged.standardDeviation!.isFinite && abs(merged.standardDeviation! - 1.224744871391589e300) < 1e285)
        var zeros = DoubleStatistics()
        [0.0, 0.0].withUnsafeBufferPointer { zeros.add($0) }
        zeros.merge(large)
        #expect(zeros.mean == 1e300)
    }
}
