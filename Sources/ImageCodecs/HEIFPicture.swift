import FileIO
import HEIFCodec
import Imaging
import JPEGCodec
import PNGCodec
import WorkerPool

/// A HEIC or AVIF picture: its stored pixels are the coded image, its orientation the file's
/// rotation and mirror (`irot`, `imir`). An EXIF orientation inside is informational, as the HEIF
/// specification, Apple, libheif and vips have it: applying it too would turn every iPhone photo
/// twice. A grid is decoded from the tiles the rect meets only.
public struct HEIFPicture: SourcePicture {
    public let storedWidth: Int
    public let storedHeight: Int
    public let orientation: Orientation
    public let warnings: [String]
    public let color: ColorDescription?
    public let exif: [UInt8]?
    public let xmp: [UInt8]?
    public var subsampling: ChromaSubsampling? { nil }
    public let workingBytes: Int
    public var keepsStoredPixels: Bool { false }
    private let decoder: HEIFDecoder
    private let grid: HEIFGrid?
    private let file: InputFile
    /// A clean aperture: libheif applies every transform, and the stored pixels are the displayed ones.
    private let libheifTransforms: Bool
    /// Coded without colour: cropped to gray, as Pillow reads it.
    private let monochrome: Bool
    /// The alpha image is coded in limited range, which libheif 1.15 does not expand.
    private let limitedRangeAlpha: Bool

    /// Only what is decoded here reaches libheif's decoding: 1.15 crashes on hostile overlays (iovl).
    private static func checkDecodable(_ item: HEIFContainer.Item) throws {
        guard ["hvc1", "av01", "grid"].contains(item.type) else { throw HEIFError.unsupportedImage(type: item.type) }
    }

    /// Threads decoding tiles.
    private let threads: Int

    init(file: InputFile, opening: PictureOpening) throws {
        self.threads = WorkerThreads.count(forSetting: opening.threads)
        var container = try HEIFContainer(file: file)
        // What `pitm` names is checked here first: these errors say more than libheif's.
        try Self.checkDecodable(container.primary)
        let pitmGrid = try HEIFGrid(container: container, file: file)
        decoder = try HEIFDecoder(file: file, maxPixels: opening.maxPixels)
        let pitm = container.primaryID
        try container.usePrimary(decoder.primaryID)
        let primary = container.primary
        try Self.checkDecodable(primary)
        // Read again only where libheif took another item (pitm named a thumbnail).
        let grid = primary.id == pitm ? pitmGrid : try HEIFGrid(container: container, file: file)
        if primary.type == "grid" && grid == nil { throw HEIFError.badGrid("its tiles are neither HEVC nor AV1") }
        let coded = grid.map { ($0.width, $0.height) } ?? container.spatialExtent(of: primary)
        guard let coded else { throw HEIFError.missingBox("ispe") }
        try opening.checkPixels(width: coded.0, height: coded.1)
        self.file = file
        monochrome = container.isMonochrome(primary)
        limitedRangeAlpha = decoder.hasAlpha && container.alphaItem(of: primary).map { container.isLimitedRange($0, file: file) } == true
        let transforms = container.transforms(of: primary)
        libheifTransforms = transforms.contains(.cleanAperture)
        if libheifTransforms {
            (storedWidth, storedHeight) = (decoder.width, decoder.height)
            orientation = .identity
        } else {
            (storedWidth, storedHeight) = coded
            orientation = transforms.reduce(Orientation.identity) { shown, transform in
                switch transform {
                case .rotation(let turns): return shown.followed(by: [.identity, .rotate270Clockwise, .rotate180, .rotate90Clockwise][turns])
                case .mirror(let leftRight): return shown.followed(by: leftRight ? .mirrorHorizontal : .mirrorVertical)
                case .cleanAperture: return shown
                }
            }
        }
        // Tiles need the grid's alpha grid too; such a picture is decoded whole.
        self.grid = decoder.hasAlpha || libheifTransforms ? nil : grid
        let bytesPerSample = decoder.bitDepth > 8 ? 2 : 1
        let channels = decoder.hasAlpha ? 4 : 3
        if let usedGrid = self.grid {
            workingBytes = usedGrid.workingBytes(bytesPerSample: bytesPerSample, workers: self.threads)
        } else {
            // The decoded picture, and libheif's planes of it.
            workingBytes = storedWidth * storedHeight * (channels + 3) * bytesPerSample
        }
        color = decoder.iccProfile.map { ColorDescription(iccProfile: $0) }
        exif = decoder.exif
        xmp = decoder.xmp
        warnings = []
    }

    public func pixels(of rect: PixelRect) throws -> PixelBuffer {
        let decoded: HEIFPixels
        if let grid {
            decoded = try grid.decode(x: rect.x, y: rect.y, width: rect.width, height: rect.height, file: file, workers: threads)
            return PixelBuffer(width: rect.width, height: rect.height, channels: decoded.channels,
                               bytesPerSample: decoded.bytesPerSample, bytes: decoded.bytes)
        }
        // libheif 1.15 cannot convert some gray-and-alpha pictures to gray: those come out in colour.
        decoded = try (try? decoder.decode(appliesTransforms: libheifTransforms, monochrome: monochrome, limitedRangeAlpha: limitedRangeAlpha))
            ?? decoder.decode(appliesTransforms: libheifTransforms, limitedRangeAlpha: limitedRangeAlpha)
        // A coded picture may be larger than its ispe (codecs code whole blocks): its top-left part
        // is the picture, as newer libheif crops it.
        guard decoded.width >= storedWidth, decoded.height >= storedHeight else {
            throw HEIFError.library(message: "decoded \(decoded.width)x\(decoded.height), less than the \(storedWidth)x\(storedHeight) the file states")
        }
        let whole = PixelBuffer(width: decoded.width, height: decoded.height, channels: decoded.channels,
                                bytesPerSample: decoded.bytesPerSample, bytes: decoded.bytes)
        return whole.cropped(to: rect)
    }
}
