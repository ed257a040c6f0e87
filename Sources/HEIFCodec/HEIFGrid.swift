import FileIO
import Synchronization
import WorkerPool

/// A `grid` image: tiles of one size in rows, the picture their top-left part. A region is
/// decoded from the tiles it meets only, on every core: memory and time follow the crop.
public struct HEIFGrid: Sendable {
    public let rows: Int
    public let columns: Int
    public let width: Int
    public let height: Int
    public let tileWidth: Int
    public let tileHeight: Int
    let tiles: [UInt32]
    /// Whether the first tile is HEVC in colour (its `hvcC`'s chroma format 4:2:0, 4:2:2 or
    /// 4:4:4): what `HEVCTileReduction` may take (it checks each tile's own picture again).
    let colourHEVCTiles: Bool
    let grid: HEIFContainer.Item
    let container: HEIFContainer

    /// The grid of the primary item, or nil when the primary image is not a grid of HEVC or AV1
    /// tiles. A grid that does not add up is an error.
    public init?(container: HEIFContainer, file: InputFile) throws {
        let grid = container.primary
        guard grid.type == "grid" else { return nil }
        var reader = BoxReader(try container.data(of: grid, file: file))
        _ = try reader.u8()
        let flags = try reader.u8()
        rows = try reader.u8() + 1
        columns = try reader.u8() + 1
        let fieldSize = flags & 1 != 0 ? 4 : 2
        width = try reader.unsigned(fieldSize)
        height = try reader.unsigned(fieldSize)
        tiles = container.referenced(from: grid.id, type: "dimg")
        guard tiles.count == rows * columns else {
            throw HEIFError.badGrid("\(rows) rows of \(columns) tiles declared, \(tiles.count) tiles referenced")
        }
        let items = try tiles.map { id throws -> HEIFContainer.Item in
            guard let item = container.items[id] else { throw HEIFError.badGrid("tile item \(id) is missing") }
            return item
        }
        guard items.allSatisfy({ $0.type == "hvc1" || $0.type == "av01" }) else { return nil }
        guard let size = container.spatialExtent(of: items[0]), size.width > 0, size.height > 0 else {
            throw HEIFError.badGrid("the first tile states no size")
        }
        for item in items {
            guard let other = container.spatialExtent(of: item), other == size else {
                throw HEIFError.badGrid("tile \(item.id) is not \(size.width)x\(size.height) like the first")
            }
        }
        (tileWidth, tileHeight) = size
        // hvcC's chroma_format_idc: the low two bits of its 17th byte.
        let configuration = items[0].type == "hvc1" ? container.properties(of: items[0], type: "hvcC").first?.payload : nil
        colourHEVCTiles = configuration.map { $0.count > 16 && $0[$0.startIndex + 16] & 3 != 0 } ?? false
        guard width > 0, height > 0, width <= columns * tileWidth, height <= rows * tileHeight,
              width > (columns - 1) * tileWidth, height > (rows - 1) * tileHeight else {
            throw HEIFError.badGrid("\(columns)x\(rows) tiles of \(tileWidth)x\(tileHeight) do not make \(width)x\(height)")
        }
        self.grid = grid
        self.container = container
    }

    /// Bytes decoding a region needs besides the region: a decoded tile (RGB, and libheif's
    /// planes) on each worker.
    public func workingBytes(bytesPerSample: Int, workers: Int) -> Int {
        tileWidth * tileHeight * bytesPerSample * 8 * workers
    }

    /// Whether a reduction by `factor` keeps each tile a whole number of reduced pixels.
    public func reducible(by factor: Int) -> Bool {
        factor == 1 || colourHEVCTiles && tileWidth % factor == 0 && tileHeight % factor == 0
    }

    /// Columns `x ..< x + regionWidth`, rows `y ..< y + regionHeight` of the picture as coded,
    /// reduced by `factor` in each direction (`reducible(by:)`; `x` and `y` multiples of it): each
    /// pixel the mean of the coded pixels it covers, ceil(regionWidth / factor) x
    /// ceil(regionHeight / factor) of them, in 16 bits where reduced.
    public func decode(x: Int, y: Int, width regionWidth: Int, height regionHeight: Int, reducedBy factor: Int = 1,
                       file: InputFile, workers: Int) throws -> HEIFPixels {
        precondition(reducible(by: factor) && x % factor == 0 && y % factor == 0)
        let firstColumn = x / tileWidth, lastColumn = (x + regionWidth - 1) / tileWidth
        let firstRow = y / tileHeight, lastRow = (y + regionHeight - 1) / tileHeight
        let needed = (firstRow...lastRow).flatMap { row in (firstColumn...lastColumn).map { (row, $0) } }
        let (tiles, columns, grid, container) = (self.tiles, self.columns, self.grid, self.container)
        let (width, height) = (self.width, self.height)
        let (reducedWidth, reducedHeight) = ((regionWidth + factor - 1) / factor, (regionHeight + factor - 1) / factor)
        let region = Mutex<RegionBuffer?>(nil)
        let failure = Mutex<Error?>(nil)
        let next = Atomic<Int>(0)
        let (tileWidth, tileHeight) = (self.tileWidth, self.tileHeight)
        let monochrome = container.isMonochrome(grid)
        WorkerThreads.run(count: max(1, min(workers, needed.count))) { _ in
            while failure.withLock({ $0 == nil }) {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < needed.count else { return }
                do {
                    let (row, column) = needed[index]
                    let tileItem = container.items[tiles[row * columns + column]]!
                    // The tile's part inside the picture: a reduced pixel means only what is shown.
                    let shown = (min(tileWidth, width - column * tileWidth), min(tileHeight, height - row * tileHeight))
                    let pixels: HEIFPixels
                    // What the tile decodes to as coded, which every tile must share, reduced or not.
                    let coded: (channels: Int, bytesPerSample: Int)
                    if factor > 1, !monochrome, let reduced = try HEVCTileReduction.decode(tile: tileItem, grid: grid, container: container, file: file,
                                                                                            width: shown.0, height: shown.1, factor: factor) {
                        (pixels, coded) = (reduced, (3, 1))
                    } else {
                        // Made by the worker that decodes it: reading overlaps decoding, and no tile waits in memory.
                        let tileFile = try HEIFTileFile.make(tile: tileItem, grid: grid, container: container, file: file)
                        let whole = try tileFile.withUnsafeBytes { bytes in
                            try HEIFDecoder(bytes: bytes, maxPixels: tileWidth * tileHeight).decode(appliesTransforms: false, monochrome: monochrome)
                        }
                        pixels = factor > 1 ? whole.reduced(by: factor, width: shown.0, height: shown.1) : whole
                        coded = (whole.channels, whole.bytesPerSample)
                    }
                    try region.withLock { buffer in
                        if buffer == nil {
                            buffer = RegionBuffer(width: reducedWidth, height: reducedHeight, channels: pixels.channels, bytesPerSample: pixels.bytesPerSample,
                                                  coded: coded)
                        }
                        guard coded == buffer!.coded, pixels.channels == buffer!.channels, pixels.bytesPerSample == buffer!.bytesPerSample else {
                            // Named in one order, whichever tile came first.
                            let formats = [coded, buffer!.coded].map { "\($0.channels) channels of \(8 * $0.bytesPerSample) bits" }.sorted()
                            throw HEIFError.badGrid("its tiles decode to different formats: \(formats[0]) and \(formats[1])")
                        }
                        // A tile coded larger than it states shows only what it states: the rest is its neighbours'.
                        buffer!.paste(pixels, atX: (column * tileWidth - x) / factor, y: (row * tileHeight - y) / factor,
                                      within: ((tileWidth + factor - 1) / factor, (tileHeight + factor - 1) / factor))
                    }
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        guard let buffer = region.withLock({ $0 }) else { throw HEIFError.badGrid("no tile decoded") }
        return HEIFPixels(width: reducedWidth, height: reducedHeight, channels: buffer.channels,
                          bytesPerSample: buffer.bytesPerSample, bytes: buffer.bytes)
    }
}

/// The region being assembled from tiles.
private struct RegionBuffer {
    let width: Int
    let height: Int
    let channels: Int
    let bytesPerSample: Int
    /// What the tiles decode to as coded, before any reduction.
    let coded: (channels: Int, bytesPerSample: Int)
    var bytes: [UInt8]

    init(width: Int, height: Int, channels: Int, bytesPerSample: Int, coded: (channels: Int, bytesPerSample: Int)) {
        self.width = width
        self.height = height
        self.channels = channels
        self.bytesPerSample = bytesPerSample
        self.coded = coded
        bytes = [UInt8](repeating: 0, count: width * height * channels * bytesPerSample)
    }

    /// Copies the part of `tile`'s top-left `within` (its corner at `left`, `top` of the region)
    /// that lies in the region.
    mutating func paste(_ tile: HEIFPixels, atX left: Int, y top: Int, within: (width: Int, height: Int)) {
        let pixelBytes = channels * bytesPerSample
        let fromX = max(0, -left), toX = min(tile.width, within.width, width - left)
        let fromY = max(0, -top), toY = min(tile.height, within.height, height - top)
        guard fromX < toX, fromY < toY else { return }
        let count = (toX - fromX) * pixelBytes
        bytes.withUnsafeMutableBufferPointer { destination in
            tile.bytes.withUnsafeBufferPointer { source in
                for row in fromY..<toY {
                    let from = source.baseAddress! + (row * tile.width + fromX) * pixelBytes
                    let to = destination.baseAddress! + ((top + row) * width + left + fromX) * pixelBytes
                    to.update(from: from, count: count)
                }
            }
        }
    }
}
