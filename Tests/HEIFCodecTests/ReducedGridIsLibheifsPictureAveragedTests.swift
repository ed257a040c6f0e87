import FileIO
@testable import HEIFCodec
import Testing
import TestSupport

/// A grid decoded reduced (its tiles averaged down past libheif, `HEIFGrid.decode(reducedBy:)`)
/// is libheif's own RGB decoding of the whole picture, averaged in blocks by the test.
@Suite struct ReducedGridIsLibheifsPictureAveragedTests {
    /// grid6: lossless 4:4:4 in limited range, BT.601; grid420: lossy 4:2:0 in the full range, BT.709.
    @Test(arguments: ["grid6.heic", "grid420.heic"], [2, 4, 8])
    func reducedGridIsTheMeanOfLibheifsPixels(name: String, factor: Int) throws {
        let path = RepositoryFixtures.path("heif/\(name)")
        let file = try InputFile(path: path)
        let container = try HEIFContainer(file: file)
        let grid = try #require(try HEIFGrid(container: container, file: file))
        #expect(grid.reducible(by: factor))
        let whole = try grid.decode(x: 0, y: 0, width: grid.width, height: grid.height, file: file, workers: 2)
        try #require(whole.width >= grid.width && whole.height >= grid.height && whole.channels == 3 && whole.bytesPerSample == 1)
        let reduced = try grid.decode(x: 0, y: 0, width: grid.width, height: grid.height, reducedBy: factor, file: file, workers: 2)
        let (width, height) = ((grid.width + factor - 1) / factor, (grid.height + factor - 1) / factor)
        try #require(reduced.width == width && reduced.height == height && reduced.channels == 3 && reduced.bytesPerSample == 2)
        var largest = 0, total = 0, signed = 0
        for y in 0..<height {
            for x in 0..<width {
                let rows = (y * factor)..<min(y * factor + factor, grid.height), columns = (x * factor)..<min(x * factor + factor, grid.width)
                for channel in 0..<3 {
                    var sum = 0
                    for row in rows {
                        for column in columns { sum += Int(whole.bytes[(row * whole.width + column) * 3 + channel]) }
                    }
                    let count = rows.count * columns.count
                    // In 16 bits: the 8-bit mean times 257.
                    let at = 2 * ((y * width + x) * 3 + channel)
                    let value = Int(reduced.bytes[at]) << 8 | Int(reduced.bytes[at + 1])
                    let difference = abs(value - (sum * 257 + count / 2) / count)
                    signed += value - (sum * 257 + count / 2) / count
                    largest = max(largest, difference)
                    total += difference
                }
            }
        }
        // libheif converts in floating point and rounds each sample; the reduction in fixed point:
        // within one 8-bit level.
        let samples = Double(width * height * 3) * 257
        #expect(largest <= 257, "\(name), factor \(factor): largest difference \(largest)")
        #expect(Double(total) / samples < 0.5, "\(name), factor \(factor): mean difference \(Double(total) / samples)")
        // No drift: a range expanded by other constants than libheif's shows as one.
        #expect(abs(Double(signed)) / samples < 0.05, "\(name), factor \(factor): mean signed difference \(Double(signed) / samples)")
    }

    /// A tile that states less than it codes, tiles of two depths, a tile of more NAL units than a
    /// picture is coded in: the same refusal reduced as decoded whole, whichever tile comes first.
    @Test(arguments: ["heic-tile-larger-than-stated.heic", "heic-tiles-of-two-depths.heic", "heic-tile-of-many-units.heic"])
    func aBrokenTileFailsReducedAsWhole(name: String) throws {
        let file = try InputFile(path: RepositoryFixtures.path("bad/\(name)"))
        let grid = try #require(try HEIFGrid(container: HEIFContainer(file: file), file: file))
        func failure(_ factor: Int) -> String {
            do {
                _ = try grid.decode(x: 0, y: 0, width: grid.width, height: grid.height, reducedBy: factor, file: file, workers: 2)
                return "decoded"
            } catch {
                return "\(error)"
            }
        }
        let whole = failure(1)
        #expect(whole != "decoded", "\(name)")
        #expect(failure(2) == whole, "\(name)")
    }

    /// Tiles coded larger than they state (within the blocks a coder rounds up to) show only what
    /// they state: pasted whole, each covered its neighbours, in whatever order they were decoded.
    @Test func aTileCodedLargerShowsOnlyWhatItStates() throws {
        let file = try InputFile(path: RepositoryFixtures.path("heif/grid-tiles-coded-larger.heic"))
        let grid = try #require(try HEIFGrid(container: HEIFContainer(file: file), file: file))
        // Decoded alone, a tile has no neighbour to cover.
        let alone = try [(0, 0), (0, 1), (1, 0), (1, 1)].map { row, column in
            try grid.decode(x: column * 16, y: row * 16, width: 16, height: 16, file: file, workers: 1)
        }
        // In order, each tile covers only those decoded before it: the tiles finish in other orders
        // on four threads, a few times over.
        for _ in 0..<8 {
            let whole = try grid.decode(x: 0, y: 0, width: 32, height: 32, file: file, workers: 4)
            for (index, (row, column)) in [(0, 0), (0, 1), (1, 0), (1, 1)].enumerated() {
                for y in 0..<16 {
                    let from = ((row * 16 + y) * 32 + column * 16) * 3
                    #expect(Array(whole.bytes[from..<(from + 48)]) == Array(alone[index].bytes[(y * 48)..<(y * 48 + 48)]), "tile \(row),\(column) row \(y)")
                }
            }
        }
    }

    /// Tiles the reduction past libheif cannot take (AV1, another matrix, deeper samples) are
    /// decoded by libheif and averaged here: 16-bit samples big-endian, edge blocks of fewer pixels.
    @Test func libheifsPixelsAreAveragedInBlocks() {
        let pixels = HEIFPixels(width: 3, height: 2, channels: 1, bytesPerSample: 2,
                                bytes: [0x01, 0x00, 0x03, 0x00, 0xFF, 0xFF,
                                        0x02, 0x00, 0x04, 0x01, 0x00, 0x01])
        let reduced = pixels.reduced(by: 2, width: 3, height: 2)
        #expect(reduced.width == 2 && reduced.height == 1 && reduced.bytesPerSample == 2)
        // (0x0100 + 0x0300 + 0x0200 + 0x0401 + 2) / 4 = 0x0280; (0xFFFF + 0x0001 + 1) / 2 = 0x8000
        #expect(reduced.bytes == [0x02, 0x80, 0x80, 0x00])
        // 8-bit samples come out times 257: (10 + 20 + 30 + 41) * 257 / 4 = 6489.25, and 200 * 257.
        let narrow = HEIFPixels(width: 3, height: 2, channels: 1, bytesPerSample: 1, bytes: [10, 20, 200, 30, 41, 200])
        #expect(narrow.reduced(by: 2, width: 3, height: 2).bytes == [0x19, 0x59, 0xC8, 0xC8])
    }
}
