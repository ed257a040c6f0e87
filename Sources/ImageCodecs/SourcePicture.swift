import Imaging
import JPEGCodec
import Failures

/// A picture file opened for reading: its stored size, orientation and colour known from the
/// header, its pixels decoded only for the region asked for. `PictureFormat.open` chooses the
/// format's own kind by the file's signature.
public protocol SourcePicture {
    var storedWidth: Int { get }
    var storedHeight: Int { get }
    var orientation: Orientation { get }
    var color: ColorDescription? { get }
    /// The picture's EXIF block (TIFF-headed), to carry to what is made of it.
    var exif: [UInt8]? { get }
    /// The picture's XMP packet, to carry to what is made of it.
    var xmp: [UInt8]? { get }
    /// A JPEG's chroma sampling, which a JPEG made of it keeps.
    var subsampling: ChromaSubsampling? { get }
    /// Whether the stored pixels can be written with the orientation in EXIF (`--keep-orientation`):
    /// not for HEIF, whose orientation is not EXIF's.
    var keepsStoredPixels: Bool { get }
    /// How it is coded, from its header.
    var facts: PictureFacts { get }
    /// Problems met that did not stop the reading.
    var warnings: [String] { get }
    /// Bytes of memory decoding any region needs besides the region (rows of the whole width, or
    /// the whole picture where the format needs it).
    var workingBytes: Int { get }
    /// Bytes of memory decoding the whole picture at `size` (one `reducedSize` gave) needs besides
    /// its rows: `workingBytes`, and whatever that way of decoding adds.
    func workingBytes(reducedTo size: (width: Int, height: Int)) -> Int
    /// Bytes a decoded pixel takes: what a region of the picture costs.
    var bytesPerPixel: Int { get }
    func pixels(of storedRect: PixelRect) throws -> PixelBuffer
    /// The smallest size the format decodes the whole picture to without decoding it whole (libvips's
    /// shrink-on-load) that is at least `width` x `height`, in stored orientation; the stored size
    /// when the format has none.
    func reducedSize(atLeast width: Int, _ height: Int) -> (width: Int, height: Int)
    /// The whole picture at `size` (one `reducedSize` gave), top to bottom, in bands of whole rows.
    /// Call once, instead of `pixels(of:)`.
    /// Coding-independent code points (H.273: primaries, transfer, matrix, full range) where the
    /// file states them (HEIF's nclx): how HDR (PQ, HLG) pictures say what they are.
    var codePoints: [UInt8]? { get }
    /// An animation, whose frame `PictureOpening.animationTime` chooses.
    var isAnimation: Bool { get }
    /// Whether `readRows` gives bands as they are decoded (memory following the width), rather than
    /// the whole picture at once.
    var streamsRows: Bool { get }
    func readRows(at size: (width: Int, height: Int), into band: (PixelBuffer) -> Void) throws
}

extension SourcePicture {
    public func workingBytes(reducedTo size: (width: Int, height: Int)) -> Int { workingBytes }

    /// At most four channels of two bytes, where the format does not say less before decoding.
    public var bytesPerPixel: Int { 8 }

    public func reducedSize(atLeast width: Int, _ height: Int) -> (width: Int, height: Int) {
        (storedWidth, storedHeight)
    }

    public var streamsRows: Bool { false }

    public var isAnimation: Bool { false }

    public var codePoints: [UInt8]? { nil }

    /// PQ or HLG, by the code points' transfer (16, 18); nil for SDR.
    public var hdrTransfer: HDRTransfer? {
        switch codePoints?[1] {
        case 16: return .pq
        case 18: return .hlg
        default: return nil
        }
    }

    /// The whole picture, decoded as a crop of all of it: one band.
    public func readRows(at size: (width: Int, height: Int), into band: (PixelBuffer) -> Void) throws {
        precondition(size == (storedWidth, storedHeight))
        band(try pixels(of: PixelRect(x: 0, y: 0, width: storedWidth, height: storedHeight)))
    }
}

/// How a picture is opened: the limits its header is checked against before anything is decoded,
/// and the threads that may decode it (HEIF grid tiles).
public struct PictureOpening: Sendable {
    public var maxPixels: Int
    public var maxMemory: Int
    /// false: only the header is wanted (`probe`), and nothing is started for decoding (PNG's
    /// checksums on another core).
    public var readsPixels = true
    /// 0 for every core.
    public var threads: Int
    /// The frame of an animation to read; nil: the first.
    public var animationTime: AnimationTime?

    public init(maxPixels: Int = DecodeLimits.defaultMaxPixels, maxMemory: Int = DecodeLimits.defaultMaxMemory, threads: Int = 0) {
        self.maxPixels = maxPixels
        self.maxMemory = maxMemory
        self.threads = threads
    }

    /// Throws when a `width` x `height` picture has more pixels than `maxPixels`.
    func checkPixels(width: Int, height: Int) throws(DecodeLimitError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixels { throw .tooManyPixels(width: width, height: height, limit: maxPixels) }
    }
}

/// A time in an animation (an animated WebP's frames): seconds from its start, or a fraction of its length.
public enum AnimationTime: Sendable, Codable, Equatable {
    case seconds(Double)
    case fraction(Double)
}

/// Why a file could not be opened as a picture at all.
public enum PictureError: Error, Equatable, CustomStringConvertible {
    /// No signature of the format list (`PictureFormat.all`): no picture this tool reads.
    case notAPicture

    public var description: String {
        switch self {
        case .notAPicture: return "not a PNG, JPEG, WebP, HEIF, AVIF or TIFF file"
        }
    }
}

extension PictureError: ClassifiedError {
    public var failureKind: FailureKind { .unsupportedFormat }
}
