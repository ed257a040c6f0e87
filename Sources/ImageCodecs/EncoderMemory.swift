import Failures
import FileIO
import Imaging
import HEIFCodec

/// What an encoder holds beside the pixels it is given, counted against `--max-memory` and held
/// of the run's budget while it encodes, where the other formats' encoders hold a row or a band.
/// AVIF: aom with its threads, libheif's copy of the picture and the YCbCr made of it. Measured
/// (peak, less the same thumbnail as PNG): 33 MiB at 0.75 megapixels, 135 at 3, 303 at 12 (25
/// bytes a pixel) and 373 at effort 6 and above; counted as 16 MiB and 32 bytes a pixel, 40 at
/// effort 6 and above. (24 bytes had a 12 MP effort-9 thumbnail at 1.7 times its limit.)
extension ImageFormat {
    public func encoderWorkingBytes(width: Int, height: Int, effort: Int = EncodingSettings().avifEffort) -> Int {
        switch self {
        case .png, .jpeg, .webp: return 0
        case .avif:
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            let (bytes, bytesOverflow) = pixels.multipliedReportingOverflow(by: effort >= 6 ? 40 : 32)
            return overflow || bytesOverflow ? Int.max : bytes + (16 << 20)
        }
    }

    /// Holds what encoding `pictures` in this format needs (the largest's), refusing before any
    /// encoding where that, beside what the job already holds of the budget (`held`: a
    /// storyboard's decoder), is over `maxMemory`, rather than waiting for memory it holds itself;
    /// nil where the encoder holds nothing worth counting or the run has no budget.
    public func reserveEncoder(for pictures: [PixelBuffer], settings: EncodingSettings, maxMemory: Int, budget: MemoryBudget?,
                               beside held: Int = 0) throws(EncoderMemoryError) -> MemoryBudget.Reservation? {
        guard let largest = pictures.max(by: { $0.width * $0.height < $1.width * $1.height }) else { return nil }
        let needed = encoderWorkingBytes(width: largest.width, height: largest.height, effort: settings.avifEffort)
        guard needed > 0 else { return nil }
        let (total, overflow) = needed.addingReportingOverflow(held)
        if overflow || total > maxMemory {
            throw EncoderMemoryError(format: self, width: largest.width, height: largest.height, needed: needed, held: held, limit: maxMemory)
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
    /// What the job held beside it (a storyboard's decoder).
    public let held: Int
    public let limit: Int

    public var description: String {
        "encoding a \(width)x\(height) \(format.rawValue.uppercased()) needs \(DecodeLimitError.mebibytes(needed)) of memory"
            + (held > 0 ? " beside the \(DecodeLimitError.mebibytes(held)) its decoding holds" : "")
            + ", over the limit of \(DecodeLimitError.mebibytes(limit, roundingUp: false)) (\(Setting.maxMemory)): a smaller size, or another format"
    }

    public var failureKind: FailureKind { .overLimit }
}
