import Imaging

/// Cells of equal size laid out row by row in one picture.
struct SpriteSheet {
    let cellWidth: Int
    let cellHeight: Int
    let columns: Int
    let rows: Int
    private(set) var pixels: PixelBuffer

    /// A black sheet with room for `cells` cells (fewer rows than `rows` when they fit in fewer).
    init(cellWidth: Int, cellHeight: Int, columns: Int, rows: Int, cells: Int, channels: Int) {
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        let usedColumns = min(columns, cells)
        let usedRows = min(rows, (cells + columns - 1) / columns)
        self.columns = usedColumns
        self.rows = usedRows
        pixels = PixelBuffer(width: cellWidth * usedColumns, height: cellHeight * usedRows, channels: channels,
                             bytes: [UInt8](repeating: 0, count: cellWidth * usedColumns * cellHeight * usedRows * channels))
    }

    /// The sheet cut down to its first `count` cells: the rows (and, in a first row not filled,
    /// the columns) no cell of them is in are left out.
    func keepingCells(_ count: Int) -> SpriteSheet {
        var kept = SpriteSheet(cellWidth: cellWidth, cellHeight: cellHeight, columns: columns, rows: rows, cells: count,
                               channels: pixels.channels)
        let rowBytes = kept.pixels.rowBytes
        for row in 0..<kept.pixels.height {
            let from = row * pixels.rowBytes
            kept.pixels.bytes.replaceSubrange(row * rowBytes..<(row + 1) * rowBytes, with: pixels.bytes[from..<(from + rowBytes)])
        }
        return kept
    }

    /// The rect of cell `index` (row by row from the top left) in the sheet.
    func rect(ofCell index: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        ((index % columns) * cellWidth, (index / columns) * cellHeight, cellWidth, cellHeight)
    }

    /// Copies `cell` into cell `index`; a cell with or without alpha where the sheet has none or
    /// has one gets it dropped, or opaque.
    mutating func place(_ cell: PixelBuffer, at index: Int) {
        precondition(cell.width == cellWidth && cell.height == cellHeight && cell.bytesPerSample == 1)
        let (x, y, _, _) = rect(ofCell: index)
        let channels = pixels.channels
        let rowBytes = pixels.rowBytes
        pixels.bytes.withUnsafeMutableBufferPointer { sheet in
            cell.bytes.withUnsafeBufferPointer { source in
                for row in 0..<cellHeight {
                    let target = (y + row) * rowBytes + x * channels
                    let from = row * cell.rowBytes
                    if cell.channels == channels {
                        for offset in 0..<cell.rowBytes { sheet[target + offset] = source[from + offset] }
                        continue
                    }
                    for column in 0..<cellWidth {
                        let pixel = from + column * cell.channels
                        let gray = cell.channels <= 2
                        for channel in 0..<channels {
                            let value: UInt8
                            if channel == 3 || (channels == 2 && channel == 1) {
                                value = cell.channels == 4 || cell.channels == 2 ? source[pixel + cell.channels - 1] : 255
                            } else {
                                value = source[pixel + (gray ? 0 : min(channel, 2))]
                            }
                            sheet[target + column * channels + channel] = value
                        }
                    }
                }
            }
        }
    }
}
