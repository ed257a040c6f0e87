import Imaging
import JPEGCodec
import FileIO
import ImageCodecs

/// What `--lossless` does with a rect off the JPEG's block grid.
public enum LosslessAlignment: Sendable, Codable {
    /// Refuse it, naming the nearest rect on the grid that contains it.
    case exact
    /// Take that rect instead.
    case expand
}

/// A JPEG crop that keeps the source's DCT blocks (jpegtran `-crop` with the orientation's
/// transform): nothing is decoded or re-encoded, so nothing is lost.
struct LosslessJPEGCrop {
    let picture: JPEGPicture
    /// The turn from stored blocks to the output's: the orientation, or none with `--keep-orientation`.
    let transform: Orientation
    /// The stored rows the transform reads: all of them, or fewer when the frame is cut short.
    var storedHeight: Int

    init(picture: JPEGPicture, transform: Orientation) {
        self.picture = picture
        self.transform = transform
        storedHeight = picture.storedHeight
    }

    /// The operation TurboJPEG applies for `transform`.
    var operation: JPEGLosslessTransform.Operation {
        switch transform {
        case .identity: return .none
        case .mirrorHorizontal: return .mirrorHorizontal
        case .rotate180: return .rotate180
        case .mirrorVertical: return .mirrorVertical
        case .transpose: return .transpose
        case .rotate90Clockwise: return .rotate90
        case .transverse: return .transverse
        case .rotate270Clockwise: return .rotate270
        }
    }

    /// The output picture's block size, across and down.
    var blockSize: (width: Int, height: Int) {
        let decoder = picture.decoder
        return operation.transposes ? (decoder.mcuHeight, decoder.mcuWidth) : (decoder.mcuWidth, decoder.mcuHeight)
    }

    /// The columns and rows at the output's left and top that hold the source's partial edge
    /// blocks: a mirror would put them there, and a partial block cannot be mirrored, so they are
    /// left out (jpegtran's `-trim`) and the grid starts after them.
    var trimmed: (columns: Int, rows: Int) {
        let (across, down) = transform.displaySize(storedWidth: picture.storedWidth, storedHeight: storedHeight)
        let block = blockSize
        return (operation.mirrorsOutputX ? across % block.width : 0, operation.mirrorsOutputY ? down % block.height : 0)
    }

    /// `rect` (in the output picture) if it is on the block grid; otherwise, with `.expand`, the
    /// smallest rect on the grid that contains it; otherwise (or when none does: the rect reaches
    /// into trimmed columns or rows) an error naming the nearest rect on the grid.
    func alignedRect(_ rect: PixelRect, alignment: LosslessAlignment) throws -> PixelRect {
        let block = blockSize, trim = trimmed
        func start(_ value: Int, _ step: Int, _ first: Int) -> Int {
            value <= first ? first : first + (value - first) / step * step
        }
        let x = start(rect.x, block.width, trim.columns), y = start(rect.y, block.height, trim.rows)
        let aligned = PixelRect(x: x, y: y, width: max(1, rect.x + rect.width - x), height: max(1, rect.y + rect.height - y))
        if aligned == rect { return rect }
        let contains = x <= rect.x && y <= rect.y
        switch alignment {
        case .expand where contains:
            return aligned
        case .expand, .exact:
            throw CropError.losslessOffGrid(rect: rect, aligned: aligned, blockWidth: block.width, blockHeight: block.height,
                                            trimmedColumns: trim.columns, trimmedRows: trim.rows, containsRect: contains)
        }
    }

    private func checkMemory(fileSize: Int, rows: Int, crop: PixelRect, limit: Int) throws -> Int {
        let decoder = picture.decoder
        let paddedWidth = (picture.storedWidth + decoder.mcuWidth - 1) / decoder.mcuWidth * decoder.mcuWidth
        let perPixel = 2 * max(1, decoder.components)
        let source = paddedWidth.multipliedReportingOverflow(by: rows)
        let sourceBytes = source.partialValue.multipliedReportingOverflow(by: perPixel)
        let cropBytes = (crop.width + decoder.mcuWidth) * (crop.height + decoder.mcuHeight) * perPixel
        let total = sourceBytes.partialValue.addingReportingOverflow(cropBytes + fileSize)
        if source.overflow || sourceBytes.overflow || total.overflow || total.partialValue > limit {
            let needed = source.overflow || sourceBytes.overflow || total.overflow ? Int.max : total.partialValue
            throw CropError.tooMuchMemory(needed: needed, limit: limit, width: picture.storedWidth, height: picture.storedHeight)
        }
        return total.partialValue
    }

    /// The cropped JPEG's bytes, no marker of the source in them. `rect` is on the grid.
    ///
    /// The stored rows below the crop are never needed, but jpegtran decodes and keeps every
    /// coefficient of the picture. A single-scan sequential JPEG is cut short instead: its frame
    /// header is told the picture ends at the MCU row after the crop, so libjpeg neither decodes
    /// nor keeps the rest (it skips those bytes as data after the scan). The blocks it gives are
    /// the same; the rect moves only where a mirror counts rows from the bottom.
    ///
    /// TurboJPEG holds the file and every coefficient of the rows it reads (two bytes a sample of
    /// every component, chroma counted at full size), and the crop's own: over `maxMemory`, the
    /// crop is refused before either is allocated.
    func crop(_ rect: PixelRect, file: InputFile, progressive: Bool, maxMemory: Int, budget: MemoryBudget?) throws -> [UInt8] {
        let stored = transform.storedRect(forDisplayed: rect, storedWidth: picture.storedWidth, storedHeight: picture.storedHeight)
        let mcuHeight = picture.decoder.mcuHeight
        let rowsNeeded = (stored.y + stored.height + mcuHeight - 1) / mcuHeight * mcuHeight
        let canCut = rowsNeeded < picture.storedHeight && !picture.decoder.keepsWholeImage
        let needed = try checkMemory(fileSize: file.size ?? 0, rows: canCut ? rowsNeeded : picture.storedHeight, crop: rect, limit: maxMemory)
        let reservation = budget?.reserve(needed)
        defer { withExtendedLifetime(reservation) {} }
        var source = try file.contents()
        var reader = self
        if canCut, JPEGFrameHeader.cutHeight(of: &source, to: rowsNeeded) {
            reader.storedHeight = rowsNeeded
        }
        let cutRect = transform.displayedRect(forStored: stored, storedWidth: picture.storedWidth, storedHeight: reader.storedHeight)
        let trim = reader.trimmed
        return try source.withUnsafeBytes { bytes in
            try JPEGLosslessTransform.apply(operation, to: bytes, x: cutRect.x - trim.columns, y: cutRect.y - trim.rows,
                                            width: cutRect.width, height: cutRect.height, progressive: progressive)
        }
    }
}
