import CResample
import Failures

/// Why a picture could not be resized.
public enum ResampleError: Error, Equatable, CustomStringConvertible {
    case outOfMemory(width: Int, height: Int)
    /// The decoder gave fewer rows than the picture has.
    case noRows
    /// The decoder gave rows of another size or layout than it said, or more of them.
    case unexpectedRows(width: Int, height: Int)

    public var description: String {
        switch self {
        case .noRows: return "the picture's decoder gave fewer rows than it has"
        case .unexpectedRows(let width, let height): return "the picture's decoder gave rows that are not those of its \(width)x\(height) picture"
        case .outOfMemory(let width, let height): return "no memory to resize to \(width)x\(height)"
        }
    }
}

/// Reduces (or, asked, enlarges) a picture with a Lanczos-3 filter widened by the reduction, as
/// Pillow and libvips do, taking the source's rows in bands as they are decoded: it holds only the
/// rows its window needs, so memory follows the target, not the source. Alpha is premultiplied
/// while filtering; the bit depth is kept.
public final class Resampler {
    public let sourceWidth: Int
    public let sourceHeight: Int
    public let targetWidth: Int
    public let targetHeight: Int
    public let channels: Int
    public let bytesPerSample: Int
    private let resampler: OpaquePointer
    private var target: [UInt8]
    private var rowsGiven = 0

    public init(sourceWidth: Int, sourceHeight: Int, targetWidth: Int, targetHeight: Int, channels: Int, bytesPerSample: Int) throws(ResampleError) {
        // Gray and alpha, or RGBA: the alpha channel is the last.
        let alpha = channels == 2 || channels == 4 ? channels - 1 : -1
        guard let made = mt_resampler_new(Int32(sourceWidth), Int32(sourceHeight), Int32(targetWidth), Int32(targetHeight),
                                          Int32(channels), Int32(bytesPerSample), Int32(alpha)) else {
            throw .outOfMemory(width: targetWidth, height: targetHeight)
        }
        resampler = made
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.targetWidth = targetWidth
        self.targetHeight = targetHeight
        self.channels = channels
        self.bytesPerSample = bytesPerSample
        target = [UInt8](repeating: 0, count: targetWidth * targetHeight * channels * bytesPerSample)
    }

    deinit {
        mt_resampler_free(resampler)
    }

    /// Bytes a resampler of these sizes holds besides its target.
    public static func workingBytes(sourceWidth: Int, sourceHeight: Int, targetWidth: Int, targetHeight: Int, channels: Int) -> Int {
        Int(mt_resampler_working_bytes(Int32(sourceWidth), Int32(sourceHeight), Int32(targetWidth), Int32(targetHeight), Int32(channels)))
    }

    /// The next rows of the source, packed (`rows` rows of `sourceWidth` pixels).
    public func push(_ rows: UnsafeRawBufferPointer, count: Int) {
        let stride = sourceWidth * channels * bytesPerSample
        precondition(rows.count >= stride * count && rowsGiven + count <= sourceHeight)
        target.withUnsafeMutableBufferPointer { out in
            _ = mt_resampler_push(resampler, rows.baseAddress!.assumingMemoryBound(to: UInt8.self), stride, Int32(count), out.baseAddress!)
        }
        rowsGiven += count
    }

    public func push(_ band: PixelBuffer) {
        precondition(band.width == sourceWidth && band.channels == channels && band.bytesPerSample == bytesPerSample)
        band.bytes.withUnsafeBytes { push($0, count: band.height) }
    }

    public var isComplete: Bool { rowsGiven == sourceHeight }

    /// The target, once every source row has been given.
    public func finish() -> PixelBuffer {
        precondition(rowsGiven == sourceHeight)
        return PixelBuffer(width: targetWidth, height: targetHeight, channels: channels, bytesPerSample: bytesPerSample, bytes: target)
    }
}

extension PixelBuffer {
    /// This picture at `width` x `height` (Lanczos-3); itself when that is its size.
    public func resized(width: Int, height: Int) throws(ResampleError) -> PixelBuffer {
        if width == self.width && height == self.height { return self }
        let resampler = try Resampler(sourceWidth: self.width, sourceHeight: self.height, targetWidth: width, targetHeight: height,
                                      channels: channels, bytesPerSample: bytesPerSample)
        resampler.push(self)
        return resampler.finish()
    }
}

extension ResampleError: ClassifiedError {
    public var failureKind: FailureKind {
        switch self {
        case .outOfMemory: return .overLimit
        case .noRows, .unexpectedRows: return .damaged
        }
    }
}
