import CHeifShim
import FileIO

/// A grid's HEVC tile decoded by libde265 and averaged down to RGB (`mt_hevc_decode_reduced`),
/// past libheif: for a picture reduced by 2 or more, libheif's handling of a tile's planes (a
/// conversion of every coded pixel) cost as much as decoding it, and the reduction a tenth more.
enum HEVCTileReduction {
    /// The top-left `width` x `height` pixels of `tile` reduced by `factor`, in 16-bit RGB (the
    /// means' fractions kept for the reduction after); nil where the tile is not 8-bit colour in a
    /// matrix converted by luma weights (the caller decodes it through libheif). Its colours as
    /// libheif gives them from the tile's own file (`HEIFTileFile`): by the tile's `colr` nclx,
    /// else the grid's, else the stream's.
    static func decode(tile: HEIFContainer.Item, grid: HEIFContainer.Item, container: HEIFContainer, file: InputFile,
                       width: Int, height: Int, factor: Int) throws -> HEIFPixels? {
        guard tile.type == "hvc1", let coded = container.spatialExtent(of: tile), coded.width >= width, coded.height >= height,
              let units = try units(of: tile, container: container, file: file) else { return nil }
        let colour = nclx(of: tile, grid: grid, container: container)
        let (reducedWidth, reducedHeight) = ((width + factor - 1) / factor, (height + factor - 1) / factor)
        var bytes = [UInt8](repeating: 0, count: reducedWidth * reducedHeight * 6)
        var message = [CChar](repeating: 0, count: 256)
        let result = bytes.withUnsafeMutableBufferPointer { target in
            mt_hevc_decode_reduced(units, UInt(units.count), Int32(coded.width), Int32(coded.height), Int32(width), Int32(height), Int32(factor),
                                   colour.map { Int32($0.matrix) } ?? -1, colour.map { $0.fullRange ? 1 : 0 } ?? -1,
                                   target.baseAddress, &message, UInt(message.count))
        }
        switch Int(result) {
        case MT_HEVC_REDUCED: return HEIFPixels(width: reducedWidth, height: reducedHeight, channels: 3, bytesPerSample: 2, bytes: bytes)
        case MT_HEVC_NOT_REDUCIBLE: return nil
        default: throw HEIFError.decoding(text(message))
        }
    }

    /// Refuses an HEVC tile whose parameter sets describe a larger picture than it states, or
    /// whose data is in more units than a picture is coded in: what `mt_heif_limit_pictures` does
    /// for the tiles libheif decodes on the calling thread, for a grid it decodes whole (on
    /// threads of its own).
    static func check(tile: HEIFContainer.Item, container: HEIFContainer, file: InputFile) throws {
        guard tile.type == "hvc1", let coded = container.spatialExtent(of: tile),
              let units = try units(of: tile, container: container, file: file) else { return }
        var message = [CChar](repeating: 0, count: 256)
        if mt_hevc_check_units(units, UInt(units.count), Int32(coded.width), Int32(coded.height), &message, UInt(message.count)) != 0 {
            throw HEIFError.decoding(text(message))
        }
    }

    /// The tile's parameter sets (its `hvcC`) and data, as libheif gives them to a decoder: NAL
    /// units each after a 4-byte length (libheif 1.15 reads the data so, whatever the hvcC says).
    private static func units(of tile: HEIFContainer.Item, container: HEIFContainer, file: InputFile) throws -> [UInt8]? {
        guard let configuration = container.properties(of: tile, type: "hvcC").first else { return nil }
        return try parameterSets(Array(configuration.payload)) + container.data(of: tile, file: file)
    }

    /// The colour description libheif converts the tile's file by: the tile's `colr` boxes, else
    /// the grid's (`HEIFTileFile` copies those), the first nclx among them.
    private static func nclx(of tile: HEIFContainer.Item, grid: HEIFContainer.Item, container: HEIFContainer) -> (matrix: Int, fullRange: Bool)? {
        let own = container.properties(of: tile, type: "colr")
        let boxes = own.isEmpty ? container.properties(of: grid, type: "colr") : own
        guard let payload = boxes.first(where: { $0.payload.prefix(4).elementsEqual("nclx".utf8) }).map({ Array($0.payload) }),
              payload.count >= 11 else { return nil }
        return (Int(payload[8]) << 8 | Int(payload[9]), payload[10] & 0x80 != 0)
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The parameter sets of an `hvcC` payload (ISO/IEC 14496-15), each after a 4-byte length.
    static func parameterSets(_ payload: [UInt8]) throws -> [UInt8] {
        guard payload.count >= 23 else { throw HEIFError.decoding("its HEVC configuration (hvcC) is \(payload.count) bytes, less than 23") }
        var at = 23, units: [UInt8] = []
        for _ in 0..<Int(payload[22]) {
            guard at + 3 <= payload.count else { throw HEIFError.decoding("its HEVC configuration (hvcC) ends inside its parameter sets") }
            let count = Int(payload[at + 1]) << 8 | Int(payload[at + 2])
            at += 3
            for _ in 0..<count {
                guard at + 2 <= payload.count else { throw HEIFError.decoding("its HEVC configuration (hvcC) ends inside its parameter sets") }
                let length = Int(payload[at]) << 8 | Int(payload[at + 1])
                at += 2
                guard length <= payload.count - at else { throw HEIFError.decoding("its HEVC configuration (hvcC) ends inside its parameter sets") }
                units += [0, 0, UInt8(length >> 8), UInt8(length & 0xFF)] + payload[at..<(at + length)]
                at += length
            }
        }
        return units
    }
}

extension HEIFContainer {
    /// Refuses the HEVC tiles of `grid` that state less than they code (`HEVCTileReduction.check`):
    /// for a grid libheif decodes whole, on threads of its own, which `mt_heif_limit_pictures`
    /// does not reach.
    public func checkTiles(of grid: Item, file: InputFile) throws {
        guard grid.type == "grid" else { return }
        for id in referenced(from: grid.id, type: "dimg") {
            if let tile = items[id] { try HEVCTileReduction.check(tile: tile, container: self, file: file) }
        }
    }
}
