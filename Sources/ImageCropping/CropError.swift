import FileIO
import Imaging
import Failures

/// Why a crop could not be made.
public enum CropError: Error, Equatable, CustomStringConvertible {
    /// Decoding would take more memory than the limit, known before any allocation.
    case tooMuchMemory(needed: Int, limit: Int, width: Int, height: Int)
    /// The rect is not wholly inside the picture as displayed (or as stored, with --stored).
    case rectOutside(rect: PixelRect, width: Int, height: Int, space: String)
    /// Even clamped, nothing of the rect is inside the picture.
    case rectDisjoint(rect: PixelRect, width: Int, height: Int, space: String)
    /// A rect in a view's coordinates that maps to `mapped`, not (`meets`: not wholly) inside the picture.
    case viewRectOutside(rect: FractionalRect, mapping: ViewMapping, mapped: PixelRect, width: Int, height: Int, meets: Bool)

    /// `--lossless` with a rect off the JPEG's block grid.
    case losslessOffGrid(rect: PixelRect, aligned: PixelRect, blockWidth: Int, blockHeight: Int,
                         trimmedColumns: Int, trimmedRows: Int, containsRect: Bool)
    /// `--lossless` JPEG output from a picture that is not a JPEG.
    case losslessNeedsJPEG

    public var description: String {
        switch self {
        case .tooMuchMemory(let needed, let limit, let width, let height):
            return "cropping from this \(width)x\(height) picture needs \(CropError.mebibytes(needed)) of memory, over the limit of \(DecodeLimitError.mebibytes(limit, roundingUp: false)) (\(Setting.maxMemory))"
        case .rectOutside(let rect, let width, let height, let space):
            return "rect \(rect) is not inside the picture, \(width)x\(height) as \(space) (\(Setting.clamps) crops the part inside)"
        case .rectDisjoint(let rect, let width, let height, let space):
            return "rect \(rect) does not meet the picture, \(width)x\(height) as \(space)"
        case .viewRectOutside(let rect, let mapping, let mapped, let width, let height, let meets):
            let typed = [rect.x, rect.y, rect.width, rect.height].map(Self.number).joined(separator: ",")
            let view = "\(Self.number(mapping.viewWidth))x\(Self.number(mapping.viewHeight))"
            let seen = "rect \(typed) of the \(view) view (\(mapped) of the \(width)x\(height) picture as displayed)"
            return meets ? "\(seen) is not inside the picture (\(Setting.clamps) crops the part inside)" : "\(seen) does not meet the picture"
        case .losslessOffGrid(let rect, let aligned, let blockWidth, let blockHeight, let columns, let rows, let containsRect):
            let grid = "the \(blockWidth)x\(blockHeight) block grid" + (columns + rows > 0 ? " (which starts at \(columns),\(rows): partial blocks before it cannot be turned without loss)" : "")
            if containsRect {
                return "rect \(rect) is not on \(grid) of the output picture; the nearest rect on it that contains this one is \(aligned) (\(Setting.losslessExpand) takes it)"
            }
            return "rect \(rect) is not on \(grid) of the output picture, and no rect on it contains this one; the nearest is \(aligned)"
        case .losslessNeedsJPEG:
            return "\(Setting.lossless) JPEG output needs a JPEG picture: this one would be re-encoded with loss (write PNG or WebP to keep every pixel)"
        }
    }

    /// Bytes in MiB, rounded up: a need is never understated.
    static func mebibytes(_ bytes: Int) -> String { DecodeLimitError.mebibytes(bytes) }

    /// A number as typed: `5`, not `5.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension CropError: ClassifiedError {
    public var failureKind: FailureKind {
        if case .tooMuchMemory = self { return .overLimit }
        return .invalidRequest
    }
}
