import FileIO
import Foundation
import HEIFCodec
import Testing
import TestSupport

let heifInfo = "/usr/bin/heif-info"
let heifConvert = "/usr/bin/heif-convert"

/// What `heif-info -d` (libheif's own box dump) states about a file's items, references and the
/// properties of a file with one coded image.
struct HEIFInfoDump {
    var primaryID: UInt32?
    var items: [(id: UInt32, type: String, hidden: Bool)] = []
    var references: [(type: String, from: UInt32, to: [UInt32])] = []
    var extents: [(width: Int, height: Int)] = []
    var transforms: [HEIFTransform] = []

    init(_ path: String) throws {
        let run = try ChildProcess.run(heifInfo, ["-d", path])
        try #require(run.status == 0)
        var box = ""
        var pendingID: UInt32?, pendingType: String?, pendingWidth: Int?
        for rawLine in String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n") {
            let line = rawLine.drop { $0 == "|" || $0 == " " }
            func value(_ key: String) -> String? {
                line.hasPrefix(key + ": ") ? String(line.dropFirst(key.count + 2)).trimmingCharacters(in: .whitespaces) : nil
            }
            if let name = value("Box") { box = String(name.prefix(4)); continue }
            switch box {
            case "pitm": if let id = value("item_ID") { primaryID = UInt32(id) }
            case "infe":
                if let id = value("item_ID") { pendingID = UInt32(id) }
                if let type = value("item_type") { pendingType = type }
                if let hidden = value("hidden item"), let id = pendingID, let type = pendingType {
                    items.append((id, type, hidden == "true"))
                }
            case "iref":
                if line.hasPrefix("reference with type '") {
                    let type = String(line.dropFirst(21).prefix(4))
                    let parts = line.components(separatedBy: "from ID: ")[1].components(separatedBy: " to IDs: ")
                    references.append((type, UInt32(parts[0])!, parts[1].split(separator: " ").compactMap { UInt32($0) }))
                }
            case "ispe":
                if let width = value("image width") { pendingWidth = Int(width) }
                if let height = value("image height"), let width = pendingWidth { extents.append((width, Int(height)!)) }
            case "irot":
                if let rotation = value("rotation") { transforms.append(.rotation(quarterTurnsAnticlockwise: Int(rotation.prefix { $0.isNumber })! / 90)) }
            case "imir":
                if let direction = value("mirror direction") { transforms.append(.mirror(leftRight: direction == "horizontal")) }
            case "clap":
                if value("clean_aperture") != nil { transforms.append(.cleanAperture) }
            default: break
            }
        }
    }
}

/// `HEIFContainer`: the boxes of a file read as libheif's heif-info reads them.
@Suite struct HEIFContainerTests {
    static let singleImages = (1...8).map { "orientation\($0).heic" } + ["orientation1.avif", "orientation6.avif", "clap.heic", "gray.heic", "depth10.heic", "icc-xmp.heic"]

    @Test(.enabled(if: try Requirement.tool(heifInfo)), arguments: singleImages + ["grid6.heic", "alpha-limited.avif"])
    func itemsAndReferencesAreHeifInfos(name: String) throws {
        let path = RepositoryFixtures.path("heif/\(name)")
        let dump = try HEIFInfoDump(path)
        let container = try HEIFContainer(file: InputFile(path: path))
        #expect(container.primaryID == dump.primaryID)
        #expect(container.items.count == dump.items.count)
        for item in dump.items {
            let ours = container.items[item.id]
            #expect(ours?.type == item.type && ours?.hidden == item.hidden, "\(name) item \(item.id)")
        }
        #expect(container.references.map { "\($0.type) \($0.from) \($0.to)" } == dump.references.map { "\($0.type) \($0.from) \($0.to)" })
    }

    /// Files of one coded image: its `ispe` and its rotation, mirror and clean aperture in order.
    @Test(.enabled(if: try Requirement.tool(heifInfo)), arguments: singleImages)
    func extentAndTransformsAreHeifInfos(name: String) throws {
        let path = RepositoryFixtures.path("heif/\(name)")
        let dump = try HEIFInfoDump(path)
        let container = try HEIFContainer(file: InputFile(path: path))
        let extent = try #require(container.spatialExtent(of: container.primary))
        #expect(dump.extents.count == 1 && extent.width == dump.extents[0].width && extent.height == dump.extents[0].height)
        #expect(container.transforms(of: container.primary) == dump.transforms, "\(name)")
    }

    @Test(.enabled(if: try Requirement.tool(heifInfo)))
    func gridIsItsTiles() throws {
        let path = RepositoryFixtures.path("heif/grid6.heic")
        let dump = try HEIFInfoDump(path)
        let container = try HEIFContainer(file: InputFile(path: path))
        #expect(container.primary.type == "grid")
        let tiles = container.referenced(from: container.primaryID, type: "dimg")
        #expect(tiles == dump.references.first { $0.type == "dimg" }?.to)
        let grid = try #require(try HEIFGrid(container: container, file: InputFile(path: path)))
        #expect(grid.rows * grid.columns == tiles.count)
        let extent = try #require(container.spatialExtent(of: container.primary))
        #expect(grid.width == extent.width && grid.height == extent.height)
        #expect(grid.tileWidth * grid.columns >= grid.width && grid.tileHeight * grid.rows >= grid.height)
        let tile = try #require(container.items[tiles[0]])
        let tileExtent = try #require(container.spatialExtent(of: tile))
        #expect(tileExtent.width == grid.tileWidth && tileExtent.height == grid.tileHeight)
    }
}

/// `HEIFDecoder`: the displayed picture as libheif's heif-convert writes it.
@Suite struct HEIFDecoderTests {
    @Test(.enabled(if: try Requirement.tool(heifConvert)),
          arguments: ["orientation1.heic", "orientation6.heic", "orientation7.heic", "clap.heic", "grid6.heic", "orientation6.avif"])
    func displayedPixelsAreHeifConverts(name: String) throws {
        let path = RepositoryFixtures.path("heif/\(name)")
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("out.png").path
        let run = try ChildProcess.run(heifConvert, [path, png])
        try #require(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        let reference = try DecodedPNG(path: png)
        let decoder = try HEIFDecoder(file: InputFile(path: path), maxPixels: 1 << 24)
        let pixels = try decoder.decode(appliesTransforms: true)
        #expect(pixels.width == reference.width && pixels.height == reference.height)
        #expect(pixels.channels == reference.channels && pixels.bytesPerSample == 1)
        #expect(pixels.bytes == reference.bytes, "\(name)")
    }

    @Test func pixelLimitIsCheckedFromTheHeader() throws {
        let path = RepositoryFixtures.path("heif/orientation1.heic")
        #expect(throws: (any Error).self) { try HEIFDecoder(file: InputFile(path: path), maxPixels: 10) }
    }
}
