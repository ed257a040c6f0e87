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
    public var codePoints: [UInt8]? { decoder.codePoints }
    public let facts: PictureFacts
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
            orientation = Self.orientation(of: transforms)
        }
        // Tiles need the grid's alpha grid too; such a picture is decoded whole.
        self.grid = decoder.hasAlpha || libheifTransforms ? nil : grid
        if self.grid == nil {
            try container.checkTiles(of: primary, file: file)
            if let alpha = container.alphaItem(of: primary) { try container.checkTiles(of: alpha, file: file) }
        }
        let bytesPerSample = decoder.bitDepth > 8 ? 2 : 1
        let channels = decoder.hasAlpha ? 4 : 3
        if let usedGrid = self.grid {
            workingBytes = usedGrid.workingBytes(bytesPerSample: bytesPerSample, workers: self.threads)
        } else {
            // The decoded picture, and libheif's planes of it.
            workingBytes = storedWidth * storedHeight * (channels + 3) * bytesPerSample
        }
        color = decoder.iccProfile.map { ColorDescription(iccProfile: $0) }
        let codedItem = primary.type == "grid" ? container.referenced(from: primary.id, type: "dimg").first.flatMap { container.items[$0] } : primary
        let isAV1 = codedItem?.type == "av01"
        // As stored (`ispe`), as HEIFHeaderPicture says it: libheif 1.15 turns a thumbnail's size
        // by its `irot` or not, by the order of its properties.
        let thumbnail = container.thumbnails(of: primary).max { $0.width * $0.height < $1.width * $1.height }
        facts = PictureFacts(format: isAV1 ? "avif" : "heic", mime: isAV1 ? "image/avif" : "image/heic", codec: isAV1 ? "av1" : "hevc",
                             bitDepth: decoder.bitDepth, hasAlpha: decoder.hasAlpha, embeddedThumbnail: thumbnail)
        exif = decoder.exif
        xmp = decoder.xmp
        warnings = []
    }

    /// The orientation `irot` and `imir`, in the order they apply, make of the coded image.
    static func orientation(of transforms: [HEIFTransform]) -> Orientation {
        transforms.reduce(Orientation.identity) { shown, transform in
            switch transform {
            case .rotation(let turns): return shown.followed(by: [.identity, .rotate270Clockwise, .rotate180, .rotate90Clockwise][turns])
            case .mirror(let leftRight): return shown.followed(by: leftRight ? .mirrorHorizontal : .mirrorVertical)
            case .cleanAperture: return shown
            }
        }
    }

    /// The smallest thumbnail item (phones write one) at least this large, in stored orientation;
    /// else the picture. A thumbnail is taken only where it shows what the picture shows: its
    /// displayed shape the picture's (a thumbnail turned otherwise is passed over).
    public func reducedSize(atLeast width: Int, _ height: Int) -> (width: Int, height: Int) {
        if let thumbnail = usableThumbnail(atLeast: width, height) { return (thumbnail.width, thumbnail.height) }
        return reduction(atLeast: width, height).map(reducedSize(by:)) ?? (storedWidth, storedHeight)
    }

    /// The largest factor an 8-bit colour grid's tiles are averaged down by (`HEIFGrid.decode`)
    /// that keeps the picture at least twice this large, as a JPEG's DCT scaling does: the
    /// Lanczos reduction after it has a factor of 2 or more to work with. Only a factor that
    /// divides the picture: a last column of fewer pixels would stretch what the Lanczos sees by
    /// up to half a pixel (a 1025-pixel-wide photo came out 6 dB off at its right edge). nil:
    /// decoded whole.
    private func reduction(atLeast width: Int, _ height: Int) -> Int? {
        guard let grid, decoder.bitDepth == 8, !monochrome else { return nil }
        return [8, 4, 2].first { factor in
            let size = reducedSize(by: factor)
            return grid.reducible(by: factor) && storedWidth % factor == 0 && storedHeight % factor == 0
                && size.width >= 2 * width && size.height >= 2 * height
        }
    }

    private func reducedSize(by factor: Int) -> (width: Int, height: Int) {
        ((storedWidth + factor - 1) / factor, (storedHeight + factor - 1) / factor)
    }

    private func usableThumbnail(atLeast width: Int, _ height: Int) -> (id: UInt32, width: Int, height: Int)? {
        guard !libheifTransforms else { return nil }
        let shown = orientation.displaySize(storedWidth: storedWidth, storedHeight: storedHeight)
        return decoder.thumbnails
            .filter { abs(Double($0.width) / Double($0.height) - Double(shown.width) / Double(shown.height)) < 0.02 * Double(shown.width) / Double(shown.height) }
            .map { thumbnail in
                let stored = orientation.storedSize(displayWidth: thumbnail.width, displayHeight: thumbnail.height)
                return (thumbnail.id, stored.width, stored.height)
            }
            .filter { $0.width >= width && $0.height >= height && $0.width < storedWidth }
            .min { $0.width < $1.width }
    }

    public func readRows(at size: (width: Int, height: Int), into band: (PixelBuffer) -> Void) throws {
        if size != (storedWidth, storedHeight), let thumbnail = usableThumbnail(atLeast: size.width, size.height), (thumbnail.width, thumbnail.height) == size {
            // Decoded as shown, then turned back to the stored orientation the caller turns upright.
            let shown = try decoder.decodeThumbnail(id: thumbnail.id)
            let declared = orientation.displaySize(storedWidth: thumbnail.width, storedHeight: thumbnail.height)
            // Coded in whole blocks, a thumbnail may come out larger than its ispe (libheif 1.15 does
            // not cut it, as it does not the picture): its top-left part is the thumbnail.
            guard shown.width >= declared.width, shown.height >= declared.height else {
                throw HEIFError.library(message: "its thumbnail decoded at \(shown.width)x\(shown.height), less than the \(declared.width)x\(declared.height) it states")
            }
            let pixels = PixelBuffer(width: shown.width, height: shown.height, channels: shown.channels, bytes: shown.bytes)
                .cropped(to: PixelRect(x: 0, y: 0, width: declared.width, height: declared.height))
            band(pixels.oriented(orientation.inverse))
            return
        }
        let factor = [1, 2, 4, 8].first { reducedSize(by: $0) == size }
        guard let factor, factor == 1 || grid?.reducible(by: factor) == true else {
            preconditionFailure("no reduction of \(storedWidth)x\(storedHeight) gives \(size)")
        }
        guard let grid else {
            band(try pixels(of: PixelRect(x: 0, y: 0, width: storedWidth, height: storedHeight)))
            return
        }
        // A grid a row of tiles at a time (its tiles on every core): the rows reduced while the next
        // are decoded, and memory a row of tiles, not the picture.
        var row = 0
        while row < storedHeight {
            let rows = min(grid.tileHeight - row % grid.tileHeight, storedHeight - row)
            let decoded = try grid.decode(x: 0, y: row, width: storedWidth, height: rows, reducedBy: factor, file: file, workers: threads)
            band(PixelBuffer(width: decoded.width, height: decoded.height, channels: decoded.channels,
                             bytesPerSample: decoded.bytesPerSample, bytes: decoded.bytes))
            row += rows
        }
    }

    public var streamsRows: Bool { grid != nil }

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
