import FFmpeg
import Imaging
import Testing

@Suite struct DisplayMatrixTests {
    static let one: Int32 = 65536

    /// (a, b, c, d) of the matrix, as QuickTime's tkhd stores them, for each orientation.
    @Test(arguments: [
        ((one, 0, 0, one), Orientation.identity), ((-one, 0, 0, one), .mirrorHorizontal),
        ((-one, 0, 0, -one), .rotate180), ((one, 0, 0, -one), .mirrorVertical),
        ((0, one, one, 0), .transpose), ((0, one, -one, 0), .rotate90Clockwise),
        ((0, -one, -one, 0), .transverse), ((0, -one, one, 0), .rotate270Clockwise),
    ])
    func quarterTurnsAndMirrors(entries: (Int32, Int32, Int32, Int32), expected: Orientation) {
        let (a, b, c, d) = entries
        let result = Orientation.nearest(toDisplayMatrix: [a, b, 0, c, d, 0, 0, 0, 1 << 30])
        #expect(result.orientation == expected)
        #expect(result.isExact)
    }

    /// 30 degrees counterclockwise is nearest to no turn; 80 degrees clockwise to a quarter turn.
    @Test func otherAnglesAreRoundedAndSaidSo() {
        let thirty = Orientation.nearest(toDisplayMatrix: [56756, -32768, 0, 32768, 56756, 0, 0, 0, 1 << 30])
        #expect(thirty.orientation == .identity && !thirty.isExact)
        let eighty = Orientation.nearest(toDisplayMatrix: [11380, 64540, 0, -64540, 11380, 0, 0, 0, 1 << 30])
        #expect(eighty.orientation == .rotate90Clockwise && !eighty.isExact)
    }
}
