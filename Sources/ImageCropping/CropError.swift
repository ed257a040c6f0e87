import Imaging

/// Why a crop could not be made.
public enum CropError: Error, Equatable, CustomStringConvertible {
    /// Neither the PNG nor the JPEG signature.
    case notAPicture
    /// More pixels than the limit, found in the header before any allocation.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// Decoding would take more memory than the limit, known before any allocation.
    case tooMuchMemory(needed: Int, limit: Int, width: Int, height: Int)
    /// The rect is not wholly inside the picture as displayed (or as stored, with --stored).
    case rectOutside(rect: PixelRect, width: Int, height: Int, space: String)
    /// Even clamped, nothing of the rect is inside the picture.
    case rectDisjoint(rect: PixelRect, width: Int, height: Int, space: String)

    public var description: String {
        switch self {
        case .notAPicture:
            return "not a PNG or JPEG file"
        case .tooManyPixels(let width, let height, let limit):
            return "\(width)x\(height) is \(width * height) pixels, over the limit of \(limit) (--max-pixels)"
        case .tooMuchMemory(let needed, let limit, let width, let height):
            return "cropping from this \(width)x\(height) picture needs \(CropError.mebibytes(needed)) of memory, over the limit of \(CropError.mebibytes(limit)) (--max-memory)"
        case .rectOutside(let rect, let width, let height, let space):
            return "rect \(rect) is not inside the picture, \(width)x\(height) as \(space) (--clamp crops the part inside)"
        case .rectDisjoint(let rect, let width, let height, let space):
            return "rect \(rect) does not meet the picture, \(width)x\(height) as \(space)"
        }
    }

    /// Bytes in MiB, rounded up: a need is never understated.
    static func mebibytes(_ bytes: Int) -> String {
        "\((bytes + (1 << 20) - 1) >> 20) MiB"
    }
}
