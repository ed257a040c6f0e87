import FileIO

/// What the container itself says of an image's colours, metadata and thumbnails, read without
/// libheif (whose 1.15 reads the whole `mdat` to open a file): what `probe` needs of a HEIF file.
extension HEIFContainer {
    /// The item `item` stands for: a grid's first tile, where codec records and colours are.
    public func codedItem(of item: Item) -> Item {
        guard item.type == "grid", let first = referenced(from: item.id, type: "dimg").first, let tile = items[first] else { return item }
        return tile
    }

    /// The `colr` nclx code points (primaries, transfer, matrix, full range) of `item` or its first tile.
    public func codePoints(of item: Item) -> [UInt8]? {
        for candidate in [item, codedItem(of: item)] {
            guard let colr = properties(of: candidate, type: "colr").first(where: { $0.payload.prefix(4).elementsEqual("nclx".utf8) }) else { continue }
            let payload = Array(colr.payload)
            guard payload.count >= 11 else { return nil }
            let value = { (at: Int) in UInt8(clamping: Int(payload[at]) << 8 | Int(payload[at + 1])) }
            return [value(4), value(6), value(8), payload[10] & 0x80 != 0 ? 1 : 0]
        }
        return nil
    }

    /// The ICC profile of a `colr` box of type `prof` or `rICC`.
    public func iccProfile(of item: Item) -> [UInt8]? {
        for candidate in [item, codedItem(of: item)] {
            let colr = properties(of: candidate, type: "colr").first { $0.payload.prefix(4).elementsEqual("prof".utf8) || $0.payload.prefix(4).elementsEqual("rICC".utf8) }
            if let colr { return Array(colr.payload.dropFirst(4)) }
        }
        return nil
    }

    /// The TIFF-headed EXIF block of the `Exif` item that describes `item` (`cdsc`), its offset
    /// field skipped as libheif and exiftool skip it.
    public func exif(of item: Item, file: InputFile) -> [UInt8]? {
        for reference in references where reference.type == "cdsc" && reference.to.contains(item.id) {
            guard let described = items[reference.from], described.type == "Exif",
                  let block = try? data(of: described, file: file) else { continue }
            return Self.tiffBlock(ofExifItem: block)
        }
        return nil
    }

    /// The XMP packet of a `mime` item that describes `item` (`cdsc`), at most `limit` bytes (a
    /// packet is a few KiB; an item's extents are bounded by the file only).
    public func xmp(of item: Item, file: InputFile, limit: Int = 1 << 20) -> [UInt8]? {
        for reference in references where reference.type == "cdsc" && reference.to.contains(item.id) {
            guard let described = items[reference.from], described.type == "mime",
                  described.extents.reduce(0, { $0 &+ max(0, $1.length) }) <= limit,
                  let block = try? data(of: described, file: file),
                  block.count >= 10, String(decoding: block.prefix(4096), as: UTF8.self).contains("<x:xmpmeta") else { continue }
            return block
        }
        return nil
    }

    /// An `Exif` item's TIFF block: after its 4-byte offset field and the bytes that offset skips.
    public static func tiffBlock(ofExifItem block: [UInt8]) -> [UInt8]? {
        guard block.count >= 4 else { return nil }
        let offset = Int(block[0]) << 24 | Int(block[1]) << 16 | Int(block[2]) << 8 | Int(block[3])
        guard offset <= block.count - 4 - 8 else { return nil }
        return Array(block[(4 + offset)...])
    }

    /// The thumbnail items of `item` (`thmb`), each its stated size (`ispe`, as stored, as libheif states it).
    public func thumbnails(of item: Item) -> [(width: Int, height: Int)] {
        references.filter { $0.type == "thmb" && $0.to.contains(item.id) }.compactMap { reference in
            items[reference.from].flatMap(spatialExtent(of:))
        }
    }

    /// The codec's decoder configuration record (`hvcC`, `av1C`) of `item` or its first tile.
    public func decoderConfiguration(of item: Item) -> (type: String, record: [UInt8])? {
        let coded = codedItem(of: item)
        for type in ["hvcC", "av1C"] {
            if let property = properties(of: coded, type: type).first { return (type, Array(property.payload)) }
        }
        return nil
    }
}

extension HEIFContainer {
    /// Where in the file an item's data lies, extent by extent (the bytes `data(of:file:)` joins),
    /// so that a metadata item can be rewritten where it stands; nil when an extent lies outside.
    public func fileRanges(of item: Item) -> [Range<Int>]? {
        try? extentRanges(of: item)
    }
}
