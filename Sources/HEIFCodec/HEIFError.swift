import Failures
/// Why a HEIF (HEIC, AVIF) file could not be read, each case saying what was expected and found.
public enum HEIFError: Error, Equatable, CustomStringConvertible {
    /// A box whose size runs past its parent or the file.
    case truncatedBox(type: String, size: Int, room: Int)
    /// No `meta` box, or one without what every HEIF image needs.
    case missingBox(String)
    /// The `meta` box is larger than any real file's.
    case metaTooLarge(size: Int, limit: Int)
    /// The primary item is not in the item list.
    case noPrimaryItem(id: UInt32)
    /// An item's data is located in a way this reader does not follow (item-relative offsets).
    case unsupportedLocation(item: UInt32, method: Int)
    /// An item's data runs past the end of the file or of `idat`.
    case dataOutside(item: UInt32, offset: Int, length: Int, size: Int)
    /// An item's extents add up to more than what holds them (overlapping extents, repeated).
    case dataLargerThanFile(item: UInt32, length: Int, size: Int)
    /// More properties than an association can name (ipma's indices have 15 bits).
    case tooManyProperties(limit: Int)
    /// A grid whose tiles do not make up its declared size.
    case badGrid(String)
    /// A primary image of a kind this reader does not decode (an overlay, an uncompressed or JPEG item).
    case unsupportedImage(type: String)
    /// What libheif said.
    case library(message: String)
    /// Why the HEVC or AV1 decoder could not decode the image, in its words (or the check that
    /// kept data from it).
    case decoding(String)
    /// Why libheif's AV1 encoder could not write a picture, in its words.
    case encoding(String)
    /// Larger than the AV1 encoder writes correctly (`AVIFEncoder.mostPixels`).
    case tooLargeToEncode(width: Int, height: Int)

    public var description: String {
        switch self {
        case .truncatedBox(let type, let size, let room):
            return "HEIF box '\(type)' says \(size) bytes, but only \(room) are left"
        case .missingBox(let type):
            return "HEIF file has no '\(type)' box"
        case .metaTooLarge(let size, let limit):
            return "HEIF 'meta' box of \(size) bytes is over the limit of \(limit)"
        case .noPrimaryItem(let id):
            return "HEIF primary item \(id) is not among the items"
        case .unsupportedLocation(let item, let method):
            return "HEIF item \(item) is located by construction method \(method), which is not supported"
        case .dataOutside(let item, let offset, let length, let size):
            return "HEIF item \(item): \(length) bytes at \(offset) run past the end (\(size) bytes)"
        case .dataLargerThanFile(let item, let length, let size):
            return "item \(item)'s extents add up to \(length) bytes, more than the \(size) that hold them"
        case .tooManyProperties(let limit):
            return "more than \(limit) item properties, more than any association can name"
        case .badGrid(let what):
            return "HEIF grid: \(what)"
        case .unsupportedImage(let type):
            return "HEIF primary image of type '\(type)' is not supported (HEVC, AV1 and grids of them are)"
        case .library(let message):
            return "libheif: \(message)"
        case .decoding(let reason):
            return "HEIF image could not be decoded: \(reason)"
        case .encoding(let reason):
            return "AVIF could not be written: \(reason)"
        case .tooLargeToEncode(let width, let height):
            return "an AVIF of \(width)x\(height) is larger than Debian 12's aom 3.6 encodes correctly (8192x4352 pixels, at most 16384 wide and 8704 high): a smaller size"
        }
    }
}

extension HEIFError: ClassifiedError {
    /// An input's fault, but for the encoder's: writing fails for what this machine lacks or did
    /// wrong, never for what an upload holds.
    public var failureKind: FailureKind {
        if case .encoding = self { return .internalFailure }
        if case .tooLargeToEncode = self { return .overLimit }
        return .damaged
    }
}
