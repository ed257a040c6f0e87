import FileIO

/// What a HEIF file's `meta` box says about its items: types, where their data lies, their
/// properties and references. Read by this module rather than by libheif because libheif 1.15
/// decodes a grid only whole, and has no call for its transforms.
public struct HEIFContainer: Sendable {
    /// The brands of an ISO base media file that hold HEIF images, at the start of `ftyp`.
    static let brands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif", "avis", "miaf"]

    /// The first 12 bytes are those of a HEIF (HEIC, AVIF) file: an `ftyp` box of a HEIF brand.
    public static func hasSignature(_ start: [UInt8]) -> Bool {
        guard start.count >= 12, start[4...7].elementsEqual("ftyp".utf8) else { return false }
        return brands.contains(String(decoding: start[8..<12], as: UTF8.self))
    }

    /// Whether `start` begins an AVIF file: an `ftyp` whose major brand is AVIF's.
    public static func hasAVIFBrand(_ start: [UInt8]) -> Bool {
        guard start.count >= 12, start[4...7].elementsEqual("ftyp".utf8) else { return false }
        return ["avif", "avis"].contains(String(decoding: start[8..<12], as: UTF8.self))
    }

    public struct Item: Sendable {
        public let id: UInt32
        public let type: String
        public let hidden: Bool
        /// 0 file offsets, 1 offsets in `idat`.
        let constructionMethod: Int
        let extents: [Extent]
        /// Indices into `properties`, in association order (the order transforms apply in).
        public internal(set) var propertyIndices: [Int] = []
    }

    struct Extent: Sendable {
        let offset: Int
        let length: Int
    }

    /// A property box, whole (header included), as it can be copied into another file.
    public struct Property: Sendable {
        public let type: String
        public let box: [UInt8]
        /// The payload after the box header (and after version and flags for a full box, where the caller skips them).
        var payload: ArraySlice<UInt8> { box[(box.count >= 8 ? 8 : box.count)...] }
    }

    public private(set) var primaryID: UInt32 = 0
    public private(set) var items: [UInt32: Item] = [:]
    public private(set) var properties: [Property] = []
    /// `dimg`, `thmb`, `auxl`, `cdsc` references: from an item to items, in order.
    public private(set) var references: [(type: String, from: UInt32, to: [UInt32])] = []
    /// Where `idat`'s payload stands in the file.
    private var itemData: (offset: Int, length: Int)?
    public let fileSize: Int

    /// The largest `meta` box read: real files' are a few KiB (a 200 MP phone photo's, some tens).
    static let metaLimit = 16 << 20

    public init(file: InputFile) throws {
        guard let size = file.size else { throw HEIFError.missingBox("meta") }
        fileSize = size
        let meta = try Self.readMeta(file: file, size: size)
        var reader = BoxReader(meta.bytes)
        _ = try reader.fullBoxHeader()
        var primary: UInt32?
        for box in try reader.boxes() {
            var body = BoxReader(meta.bytes, from: box.payload, to: box.end)
            switch box.type {
            case "pitm":
                let (version, _) = try body.fullBoxHeader()
                primary = UInt32(try version == 0 ? body.u16() : body.u32())
            case "iinf": try readItemInfo(&body)
            case "iloc": try readLocations(&body)
            case "iref": try readReferences(&body)
            case "iprp": try readProperties(meta.bytes, &body)
            case "idat": itemData = (meta.offset + box.payload, box.end - box.payload)
            default: break
            }
        }
        guard let primary else { throw HEIFError.missingBox("pitm") }
        guard items[primary] != nil else { throw HEIFError.noPrimaryItem(id: primary) }
        primaryID = primary
    }

    public var primary: Item { items[primaryID]! }

    /// Takes `id` for the primary image, as libheif does where `pitm` names a thumbnail.
    public mutating func usePrimary(_ id: UInt32) throws(HEIFError) {
        guard items[id] != nil else { throw .noPrimaryItem(id: id) }
        primaryID = id
    }

    /// The properties of `item` of `type`, in association order.
    public func properties(of item: Item, type: String) -> [Property] {
        item.propertyIndices.compactMap { properties.indices.contains($0) ? properties[$0] : nil }.filter { $0.type == type }
    }

    /// The items `item` refers to by `type` (a grid's tiles by `dimg`, in row order).
    public func referenced(from item: UInt32, type: String) -> [UInt32] {
        references.first { $0.type == type && $0.from == item }?.to ?? []
    }

    /// The image size an `ispe` property states.
    public func spatialExtent(of item: Item) -> (width: Int, height: Int)? {
        guard let ispe = properties(of: item, type: "ispe").first else { return nil }
        var reader = BoxReader(Array(ispe.payload))
        guard (try? reader.fullBoxHeader()) != nil, let width = try? reader.u32(), let height = try? reader.u32() else { return nil }
        return (width, height)
    }

    /// The bytes of an item's data, its extents joined.
    /// Extents may overlap, but their total is bounded by what holds them: repeated extents of a
    /// 1 MB file grew to the worker's memory limit.
    public func data(of item: Item, file: InputFile) throws -> [UInt8] {
        var result: [UInt8] = []
        let holder = item.constructionMethod == 1 ? itemData?.length ?? 0 : fileSize
        let total = item.extents.reduce(0) { $0 &+ max(0, $1.length) }
        guard total >= 0, total <= holder else { throw HEIFError.dataLargerThanFile(item: item.id, length: total, size: holder) }
        for range in try extentRanges(of: item) {
            var part = [UInt8](repeating: 0, count: range.count)
            let got = try part.withUnsafeMutableBytes { try file.read(at: range.lowerBound, into: $0) }
            guard got == range.count else { throw HEIFError.dataOutside(item: item.id, offset: range.lowerBound, length: range.count, size: fileSize) }
            result += part
        }
        return result
    }

    /// Where in the file each of an item's extents lies, each checked against what holds it.
    func extentRanges(of item: Item) throws(HEIFError) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for extent in item.extents {
            let base: Int, limit: Int
            switch item.constructionMethod {
            case 0: (base, limit) = (0, fileSize)
            case 1:
                guard let itemData else { throw HEIFError.missingBox("idat") }
                (base, limit) = (itemData.offset, itemData.offset + itemData.length)
            default: throw HEIFError.unsupportedLocation(item: item.id, method: item.constructionMethod)
            }
            let start = base + extent.offset
            guard extent.offset >= 0, extent.length >= 0, start <= limit, extent.length <= limit - start else {
                throw HEIFError.dataOutside(item: item.id, offset: extent.offset, length: extent.length, size: limit - base)
            }
            ranges.append(start..<(start + extent.length))
        }
        return ranges
    }

    // MARK: Boxes

    /// The `meta` box's payload and where it stands, found among the top-level boxes.
    private static func readMeta(file: InputFile, size: Int) throws -> (bytes: [UInt8], offset: Int) {
        var offset = 0
        var header = [UInt8](repeating: 0, count: 16)
        while offset + 8 <= size {
            let got = try header.withUnsafeMutableBytes { try file.read(at: offset, into: $0) }
            var reader = BoxReader(Array(header.prefix(got)))
            var boxSize = try reader.u32()
            let type = try reader.fourCC()
            if boxSize == 1 { boxSize = try reader.unsigned(8) } else if boxSize == 0 { boxSize = size - offset }
            guard boxSize >= reader.position, boxSize <= size - offset else {
                throw HEIFError.truncatedBox(type: type, size: boxSize, room: size - offset)
            }
            if type == "meta" {
                let length = boxSize - reader.position
                guard length <= metaLimit else { throw HEIFError.metaTooLarge(size: length, limit: metaLimit) }
                var bytes = [UInt8](repeating: 0, count: length)
                _ = try bytes.withUnsafeMutableBytes { try file.read(at: offset + reader.position, into: $0) }
                return (bytes, offset + reader.position)
            }
            offset += boxSize
        }
        throw HEIFError.missingBox("meta")
    }

    private mutating func readItemInfo(_ body: inout BoxReader) throws(HEIFError) {
        let (version, _) = try body.fullBoxHeader()
        _ = try version == 0 ? body.u16() : body.u32()
        for box in try body.boxes() where box.type == "infe" {
            var entry = BoxReader(body.bytes, from: box.payload, to: box.end)
            let (entryVersion, flags) = try entry.fullBoxHeader()
            guard entryVersion >= 2 else { continue }
            let id = UInt32(try entryVersion == 2 ? entry.u16() : entry.u32())
            _ = try entry.u16()
            let type = try entry.fourCC()
            let existing = items[id]
            items[id] = Item(id: id, type: type, hidden: flags & 1 != 0, constructionMethod: existing?.constructionMethod ?? 0,
                             extents: existing?.extents ?? [], propertyIndices: existing?.propertyIndices ?? [])
        }
    }

    private mutating func readLocations(_ body: inout BoxReader) throws(HEIFError) {
        let (version, _) = try body.fullBoxHeader()
        let sizes = try body.u16()
        let offsetSize = sizes >> 12, lengthSize = sizes >> 8 & 0xF, baseSize = sizes >> 4 & 0xF
        let indexSize = version == 1 || version == 2 ? sizes & 0xF : 0
        let count = try version < 2 ? body.u16() : body.u32()
        for _ in 0..<count {
            let id = UInt32(try version < 2 ? body.u16() : body.u32())
            let method = version == 1 || version == 2 ? try body.u16() & 0xF : 0
            _ = try body.u16()
            let base = try body.unsigned(baseSize)
            let extentCount = try body.u16()
            var extents: [Extent] = []
            for _ in 0..<extentCount {
                _ = try body.unsigned(indexSize)
                let offset = try body.unsigned(offsetSize)
                let length = try body.unsigned(lengthSize)
                extents.append(Extent(offset: base &+ offset, length: length))
            }
            let existing = items[id]
            items[id] = Item(id: id, type: existing?.type ?? "", hidden: existing?.hidden ?? false, constructionMethod: method,
                             extents: extents, propertyIndices: existing?.propertyIndices ?? [])
        }
    }

    private mutating func readReferences(_ body: inout BoxReader) throws(HEIFError) {
        let (version, _) = try body.fullBoxHeader()
        let idSize = version == 0 ? 2 : 4
        for box in try body.boxes() {
            var reference = BoxReader(body.bytes, from: box.payload, to: box.end)
            let from = UInt32(try reference.unsigned(idSize))
            let count = try reference.u16()
            var to: [UInt32] = []
            for _ in 0..<count { to.append(UInt32(try reference.unsigned(idSize))) }
            references.append((box.type, from, to))
        }
    }

    private mutating func readProperties(_ bytes: [UInt8], _ body: inout BoxReader) throws(HEIFError) {
        for box in try body.boxes() {
            var inner = BoxReader(bytes, from: box.payload, to: box.end)
            if box.type == "ipco" {
                for property in try inner.boxes() {
                    // Indices past 15 bits cannot be associated with any item: 3.2 million properties took 756 MiB.
                    guard properties.count < 0x7FFF else { throw .tooManyProperties(limit: 0x7FFF) }
                    properties.append(Property(type: property.type, box: Array(bytes[property.start..<property.end])))
                }
            } else if box.type == "ipma" {
                let (version, flags) = try inner.fullBoxHeader()
                let count = try inner.u32()
                for _ in 0..<count {
                    let id = UInt32(try version < 1 ? inner.u16() : inner.u32())
                    let associations = try inner.u8()
                    var indices: [Int] = []
                    for _ in 0..<associations {
                        let value = try flags & 1 != 0 ? inner.u16() & 0x7FFF : inner.u8() & 0x7F
                        if value > 0 { indices.append(value - 1) }
                    }
                    if var item = items[id] {
                        item.propertyIndices = indices
                        items[id] = item
                    } else {
                        items[id] = Item(id: id, type: "", hidden: false, constructionMethod: 0, extents: [], propertyIndices: indices)
                    }
                }
            }
        }
    }
}

/// A transform a HEIF item's properties apply to the coded image, in order, to show it.
public enum HEIFTransform: Sendable, Equatable {
    /// `irot`: quarter turns anticlockwise.
    case rotation(quarterTurnsAnticlockwise: Int)
    /// `imir`: left and right swap, or top and bottom. As amended (HEIF amendment 2, the "mode"
    /// iPhones, libheif and ImageMagick write and read): 1 is left-right, 0 top-bottom; the first
    /// edition's words ("a vertical (axis = 0) axis") were read the other way by some.
    case mirror(leftRight: Bool)
    /// `clap`: a clean aperture, a crop.
    case cleanAperture
}

extension HEIFContainer {
    /// Whether `item` is coded without colour: chroma format 0 in its `hvcC`, or the monochrome
    /// flag of its `av1C`; a grid as its first tile.
    public func isMonochrome(_ item: Item) -> Bool {
        if item.type == "grid", let first = referenced(from: item.id, type: "dimg").first, let tile = items[first] {
            return isMonochrome(tile)
        }
        if let hvcC = properties(of: item, type: "hvcC").first, hvcC.box.count > 8 + 16 {
            return hvcC.box[8 + 16] & 3 == 0
        }
        if let av1C = properties(of: item, type: "av1C").first, av1C.box.count > 8 + 2 {
            return av1C.box[8 + 2] & 0x10 != 0
        }
        return false
    }

    /// The transforms of `item`, in the order they apply.
    public func transforms(of item: Item) -> [HEIFTransform] {
        item.propertyIndices.compactMap { index -> HEIFTransform? in
            guard properties.indices.contains(index) else { return nil }
            let property = properties[index]
            let value = property.payload.first.map(Int.init) ?? 0
            switch property.type {
            case "irot": return .rotation(quarterTurnsAnticlockwise: value & 3)
            case "imir": return .mirror(leftRight: value & 1 == 1)
            case "clap": return .cleanAperture
            default: return nil
            }
        }
    }
}
