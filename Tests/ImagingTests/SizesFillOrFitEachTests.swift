import Testing
@testable import Imaging

/// An ingest recipe asks for a square filled size beside fitted ones: each size of one ladder is
/// filled or fitted as it says, and they still share reductions.
@Suite struct SizesFillOrFitEachTests {
    /// Left half dark, right half bright: a centred square is half of each.
    static func halves(width: Int, height: Int) -> PixelBuffer {
        PixelBuffer(width: width, height: height, channels: 3) { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    for channel in 0..<3 { bytes[(y * width + x) * 3 + channel] = x < width / 2 ? 20 : 230 }
                }
            }
        }
    }

    @Test func aFilledSquareBesideFittedSizes() throws {
        let sizes = [ThumbnailSize(width: 150, height: 150, fill: .left), ThumbnailSize(width: 300, height: 300), ThumbnailSize(width: 100, height: 100)]
        let ladder = ThumbnailLadder(sizes: sizes, displayWidth: 600, displayHeight: 400, fill: nil)
        #expect(ladder.rungs.map { [$0.outputWidth, $0.outputHeight] } == [[150, 150], [300, 200], [100, 67]])
        #expect(ladder.rungs.map(\.gravity) == [.left, nil, nil])
        let source = Self.halves(width: 600, height: 400)
        let pictures = try ladder.make(decodedWidth: 600, decodedHeight: 400, orientation: .identity) { band in band(source) }
        #expect(pictures.map { [$0.width, $0.height] } == [[150, 150], [300, 200], [100, 67]])
        // Cut at the left: dark at its right edge too (the scaled picture is 225 wide, dark to 112).
        #expect(pictures[0].pixel(x: 100, y: 75)[0] < 40)
        #expect(pictures[1].pixel(x: 280, y: 100)[0] > 200)
    }

    @Test func theJobsFillServesSizesWithoutTheirOwn() {
        let sizes = [ThumbnailSize(width: 100, height: 100), ThumbnailSize(width: 50, height: 50, fill: .centre)]
        let ladder = ThumbnailLadder(sizes: sizes, displayWidth: 400, displayHeight: 200, fill: .attention)
        #expect(ladder.rungs.map(\.gravity) == [.attention, .centre])
        #expect(ladder.rungs.map { [$0.outputWidth, $0.outputHeight] } == [[100, 100], [50, 50]])
    }
}
