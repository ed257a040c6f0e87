import FileIO

/// One tile of a grid as a HEIF file of its own, in memory, whose primary image is that tile:
/// libheif 1.15 decodes a grid only whole and gives no handle to a tile, but decodes this file
/// with its own decoders (libde265, dav1d) and colour conversion, so a tile comes out exactly as
/// in the whole picture.
enum HEIFTileFile {
    /// The file for `tile`, its coded data read from `file`, with the tile's properties and, where
    /// the tile has none, the grid's colour description (`colr`), which phones put on the grid.
    static func make(tile: HEIFContainer.Item, grid: HEIFContainer.Item, container: HEIFContainer, file: InputFile) throws -> [UInt8] {
        let data = try container.data(of: tile, file: file)
        var properties = tile.propertyIndices.compactMap { index -> HEIFContainer.Property? in
            guard container.properties.indices.contains(index) else { return nil }
            let property = container.properties[index]
            // A tile is decoded as coded: any transform belongs to the grid.
            return ["irot", "imir", "clap"].contains(property.type) ? nil : property
        }
        if !properties.contains(where: { $0.type == "colr" }) {
            properties += container.properties(of: grid, type: "colr")
        }
        let brand = tile.type == "av01" ? "avif" : "heic"
        let ftyp = box("ftyp", ascii(brand) + [0, 0, 0, 0] + ascii("mif1") + ascii(brand) + ascii("miaf"))
        let hdlr = fullBox("hdlr", [0, 0, 0, 0] + ascii("pict") + [UInt8](repeating: 0, count: 12) + [0])
        let pitm = fullBox("pitm", [0, 1])
        let infe = fullBox("infe", version: 2, [0, 1, 0, 0] + ascii(tile.type) + [0])
        let iinf = fullBox("iinf", [0, 1] + infe)
        let ipco = box("ipco", properties.flatMap(\.box))
        // Every association marked essential, as libheif expects of the codec configuration.
        let ipma = fullBox("ipma", [0, 0, 0, 1, 0, 1, UInt8(properties.count)] + properties.indices.map { 0x80 | UInt8($0 + 1) })
        let iprp = box("iprp", ipco + ipma)
        // iloc v0, 4-byte offsets and lengths, one item, one extent; the offset is filled in below.
        var iloc = fullBox("iloc", [0x44, 0x00, 0, 1, 0, 1, 0, 0, 0, 1] + [0, 0, 0, 0] + be32(data.count))
        let meta = fullBox("meta", hdlr + pitm + iinf + iprp + iloc)
        let dataOffset = ftyp.count + meta.count + 8
        iloc.replaceSubrange((iloc.count - 8)..<(iloc.count - 4), with: be32(dataOffset))
        let patchedMeta = fullBox("meta", hdlr + pitm + iinf + iprp + iloc)
        return ftyp + patchedMeta + box("mdat", data)
    }

    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(payload.count + 8) + ascii(type) + payload
    }

    static func fullBox(_ type: String, version: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, 0, 0, 0] + payload)
    }
}
