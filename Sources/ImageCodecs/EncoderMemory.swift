import Failures
import FileIO
import Imaging
import HEIFCodec

/// What an encoder holds beside the pixels it is given, counted against `--max-memory` and held
/// of the run's budget while it encodes: AV1's encoder (aom) holds about 18 bytes a pixel and
/// 6 MiB more (measured at 2 to 12 megapixels), where the other formats' encoders hold a row or
/// a band.
extension ImageFormat {
    public func encoderWorkingBytes(width: Int, height: Int) -> Int {
        switch self {
        case .png, .jpeg, .webp: return 0
        case .avif:
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            let (bytes, bytesOverflow) = pixels.multipliedReportingOverflow(by: 24)
            return overflow || bytesOverflow ? Int.max : bytes + (8 << 20)
        }
    }

    /// Holds what encoding `pictures` in this format needs (the largest's), refusing before any
    /// encoding where that is over `maxMemory`; nil where the encoder holds nothing worth
    /// counting or the run has no budget.
    public func reserveEncoder(for pictures: [PixelBuffer], maxMemory: Int, budget: MemoryBudget?) throws(EncoderMemoryError) -> MemoryBudget.Reservation? {
        guard let largest = pictures.max(by: { $0.width * $0.height < $1.width * $1.height }) else { return nil }
        let needed = encoderWorkingBytes(width: largest.width, height: largest.height)
        guard needed > 0 else { return nil }
        if needed > maxMemory {
            throw EncoderMemoryError(format: self, width: largest.width, height: largest.height, needed: needed, limit: maxMemory)
        }
        return budget?.reserve(needed)
    }
}

/// An encoder that would need more memory than `--max-memory` gives.
public struct EncoderMemoryError: Error, Equatable, CustomStringConvertible, ClassifiedError {
    public let format: ImageFormat
    public let width: Int
    public let height: Int
    public let needed: Int
    public let limit: Int

    public var description: String {
        "encoding a \(width)x\(height) \(format.rawValue.uppercased()) needs \(DecodeLimitError.mebibytes(needed)) of memory, "
            + "over the limit of \(DecodeLimitError.mebibytes(limit, roundingUp: false)) (\(Setting.maxMemory)): a smaller size, or another --format"
    }

    public var failureKind: FailureKind { .overLimit }
}
