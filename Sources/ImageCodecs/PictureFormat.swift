import FileIO
import HEIFCodec
import JPEGCodec
import PNGCodec
import TIFFCodec
import WebPCodec

/// One picture format mediatool knows: the names and first bytes that tell it, what it holds, and
/// whether mediatool writes it. `PictureFormat.all` is the one list of formats: folder scans, help
/// texts, size limits and the choice of decoder and encoder come from it, so that adding a format
/// is one row here and one codec module (as libvips's `vips_foreign_find_load`/`find_save`).
public struct PictureFormat: Sendable {
    public enum Name: String, Sendable, CaseIterable {
        case png, jpeg, webp, avif, heif, tiff
    }

    public let name: Name
    /// File name extensions, lower case; the first is the one outputs get.
    public let extensions: [String]
    /// The largest width or height the format holds (what its encoders accept).
    public let largestSide: Int
    public let holdsAlpha: Bool
    public let holds16Bit: Bool
    /// The format mediatool writes it as; nil for formats it only reads.
    public let output: ImageFormat?
    /// Whether the first 12 bytes of a file are this format's signature.
    private let matches: @Sendable ([UInt8]) -> Bool
    /// The format's reader: the header read and checked, nothing decoded yet.
    private let reader: @Sendable (InputFile, PictureOpening) throws -> any SourcePicture

    public static let all: [PictureFormat] = [
        PictureFormat(name: .png, extensions: ["png"], largestSide: Int(Int32.max), holdsAlpha: true, holds16Bit: true,
                      output: .png, matches: PNGChunks.hasSignature, reader: PNGPicture.init),
        PictureFormat(name: .jpeg, extensions: ["jpg", "jpeg", "jpe", "jfif"], largestSide: 65500, holdsAlpha: false,
                      holds16Bit: false, output: .jpeg, matches: { $0.starts(with: [0xFF, 0xD8, 0xFF]) }, reader: JPEGPicture.init),
        PictureFormat(name: .webp, extensions: ["webp"], largestSide: 16383, holdsAlpha: true, holds16Bit: false,
                      output: .webp, matches: WebPDecoder.hasSignature, reader: WebPPicture.init),
        // AVIF is HEIF holding AV1: read as HEIF is, and written (its brand tells it from HEIC).
        PictureFormat(name: .avif, extensions: ["avif"], largestSide: 65535, holdsAlpha: true, holds16Bit: true,
                      output: .avif, matches: HEIFContainer.hasAVIFBrand, reader: readHEIF),
        PictureFormat(name: .heif, extensions: ["heic", "heif", "hif"], largestSide: 65535, holdsAlpha: true,
                      holds16Bit: true, output: nil, matches: HEIFContainer.hasSignature, reader: readHEIF),
        PictureFormat(name: .tiff, extensions: ["tif", "tiff"], largestSide: Int(UInt32.max), holdsAlpha: true, holds16Bit: true,
                      output: nil, matches: TIFFDecoder.hasSignature, reader: TIFFPicture.init),
    ]

    /// A HEIF file (HEIC or AVIF): a header alone (probe) is read without libheif where the
    /// container says it all.
    private static func readHEIF(_ file: InputFile, _ opening: PictureOpening) throws -> any SourcePicture {
        if !opening.readsPixels, let header = try HEIFHeaderPicture(file: file, opening: opening) { return header }
        return try HEIFPicture(file: file, opening: opening)
    }

    /// The format whose signature `start` (a file's first 12 bytes or more) begins with; nil for none.
    public static func identify(_ start: [UInt8]) -> PictureFormat? {
        let signature = Array(start.prefix(12))
        return all.first { $0.matches(signature) }
    }

    /// The format `file`'s first bytes say it is; nil for none.
    public static func identify(_ file: InputFile) throws -> PictureFormat? {
        identify(try file.head())
    }

    /// Opens `file` as the picture its first bytes say it is (never by its name), its header read
    /// and checked against `opening`'s limits.
    public static func open(_ file: InputFile, _ opening: PictureOpening = PictureOpening()) throws -> any SourcePicture {
        guard let format = try identify(file) else { throw PictureError.notAPicture }
        return try format.reader(file, opening)
    }

    /// Does now what the readers would do at their first picture (libheif's decoders registered): a
    /// sandboxed worker calls this while it may still load libraries.
    public static func prepareReaders() {
        HEIFDecoder.prepare()
    }

    /// Throws when a stream's first bytes are no picture this tool reads (see `InputFile.randomAccess`).
    public static func recognise(_ start: UnsafeRawBufferPointer) throws {
        if identify(Array(start.prefix(12))) == nil { throw PictureError.notAPicture }
    }

    public static func named(_ name: Name) -> PictureFormat {
        all.first { $0.name == name }!
    }

    /// Every extension of a format mediatool reads, for folder scans.
    public static let readableExtensions: Set<String> = Set(all.flatMap(\.extensions))
}
