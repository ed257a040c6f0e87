import FileIO
import HEIFCodec
import Imaging
import JPEGCodec

/// A HEIC or AVIF picture's header, read by this tool's container reader alone, for `probe`: its
/// size, orientation (`irot`, `imir`), colours, EXIF and thumbnails, without libheif, which reads
/// the whole file to open it. It decodes nothing: a picture to decode is a `HEIFPicture`.
struct HEIFHeaderPicture: SourcePicture {
    let storedWidth: Int
    let storedHeight: Int
    let orientation: Orientation
    let color: ColorDescription?
    let exif: [UInt8]?
    /// What probe reads of it: a Motion Photo's video, where its XMP says one follows.
    let xmp: [UInt8]?
    var subsampling: ChromaSubsampling? { nil }
    var keepsStoredPixels: Bool { false }
    var warnings: [String] { [] }
    var workingBytes: Int { 0 }
    let codePoints: [UInt8]?
    let facts: PictureFacts

    /// The picture as `HEIFPicture` reads it, or nil where only libheif says how it is shown (a
    /// clean aperture, a `pitm` that names what libheif passes over): that picture is read whole.
    init?(file: InputFile, opening: PictureOpening) throws {
        let container = try HEIFContainer(file: file)
        let primary = container.primary
        guard ["hvc1", "av01", "grid"].contains(primary.type), !primary.hidden,
              !container.references.contains(where: { $0.type == "thmb" && $0.from == primary.id }) else { return nil }
        let transforms = container.transforms(of: primary)
        guard !transforms.contains(.cleanAperture) else { return nil }
        let grid = try HEIFGrid(container: container, file: file)
        guard let coded = grid.map({ ($0.width, $0.height) }) ?? container.spatialExtent(of: primary) else {
            throw HEIFError.missingBox("ispe")
        }
        (storedWidth, storedHeight) = coded
        try opening.checkPixels(width: coded.0, height: coded.1)
        orientation = HEIFPicture.orientation(of: transforms)
        codePoints = container.codePoints(of: primary)
        color = container.iccProfile(of: primary).map { ColorDescription(iccProfile: $0) }
        exif = container.exif(of: primary, file: file)
        xmp = container.xmp(of: primary, file: file)
        let configuration = container.decoderConfiguration(of: primary)
        let isAV1 = configuration?.type == "av1C" || container.codedItem(of: primary).type == "av01"
        let record = configuration.flatMap { $0.type == "hvcC" ? CodecConfiguration.hevc($0.record) : CodecConfiguration.av1($0.record) }
            .flatMap { $0.isPlausible ? $0 : nil }
        let thumbnail = container.thumbnails(of: primary).max { $0.width * $0.height < $1.width * $1.height }
        facts = PictureFacts(format: isAV1 ? "avif" : "heic", mime: isAV1 ? "image/avif" : "image/heic", codec: isAV1 ? "av1" : "hevc",
                             bitDepth: record?.bitDepth ?? 8, hasAlpha: container.alphaItem(of: primary) != nil,
                             embeddedThumbnail: thumbnail)
    }

    func pixels(of storedRect: PixelRect) throws -> PixelBuffer {
        preconditionFailure("a HEIF header decodes nothing: open the picture with readsPixels")
    }
}
