/// Summary statistics of doubles in one pass and constant memory.
///
/// `minimum`, `maximum`, `mean` and `standardDeviation` (population, divisor n) are over the finite
/// values; NaNs and infinities are counted apart. The mean and deviation use Welford's update on
/// values scaled by a power of two that follows the largest magnitude seen, so that neither squares
/// of values near 1e308 overflow nor those of values near 1e-308 underflow.
public struct DoubleStatistics: Equatable, Sendable {
    public private(set) var count = 0
    public private(set) var finiteCount = 0
    public private(set) var nanCount = 0
    public private(set) var positiveInfinityCount = 0
    public private(set) var negativeInfinityCount = 0
    public private(set) var zeroCount = 0
    public private(set) var subnormalCount = 0
    public private(set) var minimum: Double?
    public private(set) var maximum: Double?

    /// Mean and sum of squared deviations, in units of `scale`.
    private var scaledMean = 0.0
    private var scaledSquaredDeviations = 0.0
    private var scale = 1.0
    private var hasScale = false

    public init() {}

    public var mean: Double? { finiteCount > 0 ? scaledMean * scale : nil }

    public var standardDeviation: Double? {
        finiteCount > 0 ? (scaledSquaredDeviations / Double(finiteCount)).squareRoot() * scale : nil
    }

    public mutating func add(_ values: UnsafeBufferPointer<Double>) {
        for value in values { add(value) }
    }

    @inline(__always)
    public mutating func add(_ value: Double) {
        count += 1
        guard value.isFinite else {
            if value.isNaN {
                nanCount += 1
            } else if value > 0 {
                positiveInfinityCount += 1
            } else {
                negativeInfinityCount += 1
            }
            return
        }
        if value == 0 { zeroCount += 1 } else if value.isSubnormal { subnormalCount += 1 }
        if finiteCount == 0 {
            minimum = value
            maximum = value
        } else {
            if value < minimum! { minimum = value }
            if value > maximum! { maximum = value }
        }
        if value != 0 {
            if !hasScale {
                // Every value so far was zero: any scale represents them.
                scale = Self.scale(for: value)
                hasScale = true
            } else if value.magnitude >= 2 * scale {
                rescale(to: Self.scale(for: value))
            }
        }
        finiteCount += 1
        let scaled = value / scale
        let delta = scaled - scaledMean
        scaledMean += delta / Double(finiteCount)
        scaledSquaredDeviations += delta * (scaled - scaledMean)
    }

    /// Adds the values `other` summarised, as if they followed these (Chan, Golub and LeVeque's
    /// pairwise update of the mean and squared deviations, at the larger of the two scales). The
    /// result depends on how values were grouped, not only on the values: `ArrayDump` groups them
    /// in blocks of a fixed size whatever the number of cores, so that it is the same everywhere.
    public mutating func merge(_ other: DoubleStatistics) {
        count += other.count
        nanCount += other.nanCount
        positiveInfinityCount += other.positiveInfinityCount
        negativeInfinityCount += other.negativeInfinityCount
        zeroCount += other.zeroCount
        subnormalCount += other.subnormalCount
        guard other.finiteCount > 0 else { return }
        if let low = other.minimum { minimum = min(minimum ?? low, low) }
        if let high = other.maximum { maximum = max(maximum ?? high, high) }
        guard finiteCount > 0 else {
            finiteCount = other.finiteCount
            (scaledMean, scaledSquaredDeviations, scale, hasScale) = (other.scaledMean, other.scaledSquaredDeviations, other.scale, other.hasScale)
            return
        }
        var theirs = other
        if other.hasScale && (!hasScale || other.scale > scale) {
            rescale(to: other.scale)
            hasScale = true
        } else if hasScale && (!other.hasScale || scale > other.scale) {
            theirs.rescale(to: scale)
        }
        let mine = Double(finiteCount), their = Double(theirs.finiteCount)
        let total = mine + their
        let delta = theirs.scaledMean - scaledMean
        scaledMean += delta * (their / total)
        scaledSquaredDeviations += theirs.scaledSquaredDeviations + delta * delta * (mine * their / total)
        finiteCount += theirs.finiteCount
    }

    /// The power of two at or just below |value|, so scaled values lie in (-2, 2).
    private static func scale(for value: Double) -> Double {
        Double(sign: .plus, exponent: value.exponent, significand: 1)
    }

    private mutating func rescale(to newScale: Double) {
        let ratio = scale / newScale
        scaledMean *= ratio
        scaledSquaredDeviations *= ratio * ratio
        scale = newScale
    }
}
