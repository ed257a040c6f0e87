import FileIO
import Failures
/// How large a picture or video frame a run decodes: known from headers and stream parameters,
/// refused before any decoder allocates for it.
public struct DecodeLimits: Sendable, Codable {
    public var maxPixels: Int
    public var maxMemory: Int
    /// The run's memory, shared by its jobs; nil: each input is checked against `maxMemory` alone.
    public var budget: MemoryBudget?

    /// The budget is this process's: a worker sent the limits makes its own, lent by its parent.
    private enum CodingKeys: String, CodingKey { case maxPixels, maxMemory }

    public static let defaultMaxPixels = 268_000_000
    public static let defaultMaxMemory = 1 << 30

    /// What decoding one video pixel may cost at most: the decoder's reference frames and its
    /// threads' frames (10-bit 4:2:0 is 3 bytes a pixel), a 16-bit RGBA copy (8) and its upright
    /// copy. 16000x16000 PNG frames took 3 GB before this limit (12 bytes a pixel).
    public static let videoBytesPerPixel = 16

    public init(maxPixels: Int = defaultMaxPixels, maxMemory: Int = defaultMaxMemory, budget: MemoryBudget? = nil) {
        self.maxPixels = maxPixels
        self.maxMemory = maxMemory
        self.budget = budget
    }

    /// The largest video frame, in pixels, that both limits allow: what FFmpeg's decoders are told
    /// (`max_pixels`), so that even a frame whose size no header states is refused before allocation.
    public var videoPixels: Int { min(maxPixels, maxMemory / Self.videoBytesPerPixel) }

    /// Holds what decoding a `width` x `height` video frame needs from the run's budget (waiting
    /// while other jobs hold it) until the reservation goes away; throws when the frame is over
    /// either limit alone.
    /// `held`: what the same reader holds of the budget already (its container's index), which
    /// the frame must fit beside within `maxMemory`, or it would wait for itself.
    public func reserveVideoFrame(width: Int, height: Int, beside held: Int = 0) throws(DecodeLimitError) -> MemoryBudget.Reservation? {
        try checkVideoFrame(width: width, height: height)
        let needed = width * height * Self.videoBytesPerPixel
        if needed > maxMemory - held {
            throw .tooMuchMemory(needed: needed.addingReportingOverflow(held).overflow ? Int.max : needed + held,
                                 limit: maxMemory, width: width, height: height)
        }
        return try reserve(needed, width: width, height: height)
    }

    /// Holds what the index a container makes of `entries` samples takes (`bytes`) of the run's
    /// budget, waiting while other jobs hold it; throws when it is over `maxMemory` alone.
    public func reserveIndex(entries: Int, bytes: Int) throws(DecodeLimitError) -> MemoryBudget.Reservation? {
        guard bytes > 0 else { return nil }
        if bytes > maxMemory { throw .indexTooLarge(entries: entries, needed: bytes, limit: maxMemory) }
        guard let budget else { return nil }
        guard let reservation = budget.reserve(bytes) else {
            if let waited = budget.starvedSeconds { throw .starvedOfMemory(seconds: waited, limit: budget.total) }
            throw .indexTooLarge(entries: entries, needed: bytes, limit: budget.total)
        }
        return reservation
    }

    /// Holds `bytes` of the run's budget; nil when there is no budget.
    public func reserve(_ bytes: Int, width: Int, height: Int) throws(DecodeLimitError) -> MemoryBudget.Reservation? {
        guard let budget else { return nil }
        guard let reservation = budget.reserve(bytes) else {
            if let waited = budget.starvedSeconds { throw .starvedOfMemory(seconds: waited, limit: budget.total) }
            throw .tooMuchMemory(needed: bytes, limit: budget.total, width: width, height: height)
        }
        return reservation
    }

    /// Throws when a `width` x `height` video frame is over either limit.
    public func checkVideoFrame(width: Int, height: Int) throws(DecodeLimitError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixels { throw .tooManyPixels(width: width, height: height, limit: maxPixels) }
        let (needed, tooMuch) = pixels.multipliedReportingOverflow(by: Self.videoBytesPerPixel)
        if tooMuch || needed > maxMemory {
            throw .tooMuchMemory(needed: tooMuch ? Int.max : needed, limit: maxMemory, width: width, height: height)
        }
    }
}

/// A picture or frame over `DecodeLimits`.
public enum DecodeLimitError: Error, Equatable, CustomStringConvertible {
    case tooManyPixels(width: Int, height: Int, limit: Int)
    case tooMuchMemory(needed: Int, limit: Int, width: Int, height: Int)
    case indexTooLarge(entries: Int, needed: Int, limit: Int)
    /// Waited for memory while nothing was given back, holding the most of those waiting
    /// (`MemoryBudget.givesUp`): ended, so that the others go on.
    case starvedOfMemory(seconds: Double, limit: Int)

    public var description: String {
        switch self {
        case .tooManyPixels(let width, let height, let limit):
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            return "\(width)x\(height) is \(overflow ? "too many" : String(pixels)) pixels, over the limit of \(limit) (\(Setting.maxPixels))"
        case .tooMuchMemory(let needed, let limit, let width, let height):
            return "decoding this \(width)x\(height) picture needs \(Self.mebibytes(needed)) of memory, over the limit of \(Self.mebibytes(limit, roundingUp: false)) (\(Setting.maxMemory))"
        case .indexTooLarge(let entries, let needed, let limit):
            return "its sample index of \(entries) entries needs \(Self.mebibytes(needed)) of memory, over the limit of \(Self.mebibytes(limit, roundingUp: false)) (\(Setting.maxMemory))"
        case .starvedOfMemory(let seconds, let limit):
            return "waited \(Int(seconds.rounded())) s for memory of the run's budget (\(Setting.maxMemory) \(Self.mebibytes(limit, roundingUp: false))) "
                + "while none was given back, holding the most of those waiting, and was ended so that the others go on"
        }
    }

    /// Bytes in MiB (KiB under one MiB): a need rounded up, a limit down, so that a need over
    /// its limit never reads as equal to it.
    public static func mebibytes(_ bytes: Int, roundingUp: Bool = true) -> String {
        if bytes == Int.max { return "more than any machine has" }
        let (unit, shift) = bytes < 1 << 20 ? ("KiB", 10) : ("MiB", 20)
        return "\(roundingUp ? (bytes + (1 << shift) - 1) >> shift : bytes >> shift) \(unit)"
    }
}

extension DecodeLimitError: ClassifiedError {
    public var failureKind: FailureKind { .overLimit }
}
