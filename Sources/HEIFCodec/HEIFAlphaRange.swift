import CHeifShim
import FileIO

/// Where an image's alpha comes from and in what range it is coded. libheif 1.15 puts the alpha
/// image's samples into the picture as coded; one coded in limited range (16 to 235 at 8 bits)
/// must be expanded, as libavif does, or opaque comes out as 235.
extension HEIFContainer {
    /// The auxiliary alpha image of `item`: an item that refers to it by `auxl` and whose `auxC`
    /// names alpha (MIAF's URN, or HEVC's auxiliary picture type 1).
    public func alphaItem(of item: Item) -> Item? {
        for reference in references where reference.type == "auxl" && reference.to.contains(item.id) {
            guard let candidate = items[reference.from], let auxC = properties(of: candidate, type: "auxC").first else { continue }
            let urn = String(decoding: auxC.payload.dropFirst(4).prefix { $0 != 0 }, as: UTF8.self)
            if urn == "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha" || urn == "urn:mpeg:hevc:2015:auxid:1" { return candidate }
        }
        return nil
    }

    /// Whether `item`'s samples are coded in limited range: its own `colr` nclx says so
    /// (full_range_flag 0), as libheif takes an item's colr over what its stream says; else, for
    /// AV1, the color_range of its sequence header (in its av1C, else in its data). An HEVC image
    /// without a colr is taken as full range: libheif 1.15 reads no range from HEVC alpha either,
    /// and this reader no VUI. A grid answers for its first tile.
    public func isLimitedRange(_ item: Item, file: InputFile) -> Bool {
        if let colr = properties(of: item, type: "colr").first(where: { $0.payload.prefix(4).elementsEqual("nclx".utf8) }) {
            let payload = Array(colr.payload)
            return payload.count >= 11 && payload[10] & 0x80 == 0
        }
        if item.type == "grid", let first = referenced(from: item.id, type: "dimg").first, let tile = items[first] {
            return isLimitedRange(tile, file: file)
        }
        guard item.type == "av01" else { return false }
        if let av1C = properties(of: item, type: "av1C").first {
            let configOBUs = Array(av1C.payload.dropFirst(4))
            let range = configOBUs.withUnsafeBufferPointer { mt_av1_color_range($0.baseAddress, UInt($0.count)) }
            if range >= 0 { return range == 0 }
        }
        guard let data = try? self.data(of: item, file: file) else { return false }
        return data.withUnsafeBufferPointer { mt_av1_color_range($0.baseAddress, UInt($0.count)) } == 0
    }
}
