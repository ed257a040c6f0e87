import Testing
@testable import BinaryArrays

@Suite struct DoubleStatisticsTests {
    static func statistics(_ values: [Double]) -> DoubleStatistics {
        var statistics = DoubleStatistics()
        values.withUnsafeBufferPointer { statistics.add($0) }
        return statistics
    }

    @Test func countsEveryClass() {
        let s = Self.statistics([0, -0.0, 5e-324, -1e-310, 1, .nan, .infinity, -.infinity, -.infinity])
        #expect(s.count == 9)
        #expect(s.finiteCount == 5)
        #expect(s.zeroCount == 2)
        #expect(s.subnormalCount == 2)
        #expect(s.nanCount == 1)
        #expect(s.positiveInfinityCount == 1)
        #expect(s.negativeInfinityCount == 2)
        #expect(s.minimum == -1e-310)
        #expect(s.maximum == 1)
    }

    /// Naive sums of squares overflow near 1e308 and underflow near 1e-308.
    @Test func extremeMagnitudesNeitherOverflowNorUnderflow() {
        let huge = Self.statistics([1e308, -1e308, 1e308, -1e308])
        #expect(huge.mean == 0)
        #expect(huge.standardDeviation == 1e308)

        let tiny = Self.statistics([0, 0, 3e-300, 5e-300])
        #expect(tiny.mean == 2e-300)
        #expect(tiny.standardDeviation.map { abs($0 - 2.1213203435596424e-300) < 1e-314 } == true)
    }

    @Test func meanAndDeviationOfAKnownSet() {
        let s = Self.statistics([2, 4, 4, 4, 5, 5, 7, 9])
        #expect(s.mean == 5)
        #expect(s.standardDeviation == 2)
    }

    @Test func noFiniteValueMeansNoMean() {
        let s = Self.statistics([.nan, .infinity])
        #expect(s.mean == nil && s.standardDeviation == nil && s.minimum == nil)
        #expect(DoubleStatisticsReport.json(s).contains("\"mean\":null"))
    }
}
