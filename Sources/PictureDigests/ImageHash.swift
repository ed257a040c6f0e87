import Glibc
import Imaging

/// The perceptual hashes of the ImageHash library (PyPI `ImageHash`), 64 bits each, printed as it
/// prints them: 16 hex digits, the first bit the most significant.
public enum ImageHash {
    /// `dhash`: the grey picture reduced to 9x8, each pixel brighter than its left neighbour or not.
    public static func differenceHash(_ picture: PixelBuffer) -> String {
        let grey = PillowLanczos.resize(RGBSamples(picture).luma, width: picture.width, height: picture.height, toWidth: 9, toHeight: 8)
        var bits: [Bool] = []
        for y in 0..<8 {
            for x in 0..<8 { bits.append(grey[y * 9 + x + 1] > grey[y * 9 + x]) }
        }
        return hex(bits)
    }

    /// `phash`: the grey picture reduced to 32x32, a 2-D DCT-II (scipy's, unnormalised), its
    /// top-left 8x8 against their median.
    public static func perceptualHash(_ picture: PixelBuffer) -> String {
        let size = 32
        let grey = PillowLanczos.resize(RGBSamples(picture).luma, width: picture.width, height: picture.height, toWidth: size, toHeight: size)
        // cos(pi k (2n + 1) / 2N) for the 8 frequencies kept.
        let basis = (0..<8).map { k in (0..<size).map { n in cos(Double.pi * Double(k) * Double(2 * n + 1) / Double(2 * size)) } }
        // Down the columns first (scipy's axis 0), then across.
        var columns = [[Double]](repeating: [Double](repeating: 0, count: size), count: 8)
        for k in 0..<8 {
            for x in 0..<size {
                var sum = 0.0
                for y in 0..<size { sum += Double(grey[y * size + x]) * basis[k][y] }
                columns[k][x] = 2 * sum
            }
        }
        var low: [Double] = []
        for ky in 0..<8 {
            for kx in 0..<8 {
                var sum = 0.0
                for x in 0..<size { sum += columns[ky][x] * basis[kx][x] }
                low.append(2 * sum)
            }
        }
        // A coefficient that is 0 (every one but DC of a flat picture, the vertical ones of a
        // left-to-right gradient, the odd ones of a mirror-symmetric picture) comes out of the
        // sums as rounding noise of either sign, about 1e-13: taken as it is, it fell on either
        // side of a median of 0 and flipped 22 to 33 bits against ImageHash, whose FFT gives 0.
        // Anything below a ten-billionth of the largest coefficient any grey picture could give
        // is 0.
        let noise = 4 * grey.reduce(0.0) { $0 + Double($1) } * 1e-10
        let cleaned = low.map { abs($0) < noise ? 0 : $0 }
        let sorted = cleaned.sorted()
        let median = (sorted[31] + sorted[32]) / 2
        return hex(cleaned.map { $0 > median })
    }

    static func hex(_ bits: [Bool]) -> String {
        var value: UInt64 = 0
        for bit in bits { value = value << 1 | (bit ? 1 : 0) }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
