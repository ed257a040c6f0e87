import Glibc
import Imaging

/// Evan Wallace's ThumbHash of a picture of at most 100x100: its colours in an LPQA space (luminance,
/// two opponent channels, alpha), a DCT of each, packed with the aspect ratio in about 25 bytes.
/// Rounding is half to even, as the reference this is tested against (PyPI's `thumbhash-python`)
/// rounds; its base64 is what the reference's `image_to_thumbhash` returns.
public enum ThumbHash {
    /// The largest side the encoding takes.
    public static let largestSide = 100

    public static func encode(_ picture: PixelBuffer) -> [UInt8] {
        precondition(picture.width >= 1 && picture.height >= 1 && picture.width <= largestSide && picture.height <= largestSide)
        let samples = RGBSamples(picture)
        let width = samples.width, height = samples.height, count = width * height
        var average = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
        for pixel in 0..<count {
            let alpha = Double(samples.rgba[pixel * 4 + 3]) / 255
            average.r += alpha / 255 * Double(samples.rgba[pixel * 4])
            average.g += alpha / 255 * Double(samples.rgba[pixel * 4 + 1])
            average.b += alpha / 255 * Double(samples.rgba[pixel * 4 + 2])
            average.a += alpha
        }
        if average.a > 0 {
            average.r /= average.a
            average.g /= average.a
            average.b /= average.a
        }
        let hasAlpha = average.a < Double(count)
        let luminanceLimit = hasAlpha ? 5.0 : 7.0
        let longest = Double(max(width, height))
        let lx = max(1, Int((luminanceLimit * Double(width) / longest).rounded(.toNearestOrEven)))
        let ly = max(1, Int((luminanceLimit * Double(height) / longest).rounded(.toNearestOrEven)))
        var l = [Double](repeating: 0, count: count), p = l, q = l, a = l
        for pixel in 0..<count {
            let alpha = Double(samples.rgba[pixel * 4 + 3]) / 255
            let r = average.r * (1 - alpha) + alpha / 255 * Double(samples.rgba[pixel * 4])
            let g = average.g * (1 - alpha) + alpha / 255 * Double(samples.rgba[pixel * 4 + 1])
            let b = average.b * (1 - alpha) + alpha / 255 * Double(samples.rgba[pixel * 4 + 2])
            l[pixel] = (r + g + b) / 3
            p[pixel] = (r + g) / 2 - b
            q[pixel] = r - g
            a[pixel] = alpha
        }
        let luminance = encodeChannel(l, width: width, height: height, nx: max(lx, 3), ny: max(ly, 3))
        let opponentP = encodeChannel(p, width: width, height: height, nx: 3, ny: 3)
        let opponentQ = encodeChannel(q, width: width, height: height, nx: 3, ny: 3)
        let transparency = hasAlpha ? encodeChannel(a, width: width, height: height, nx: 5, ny: 5) : (dc: 1.0, ac: [], scale: 1.0)

        func rounded(_ value: Double) -> Int { Int(value.rounded(.toNearestOrEven)) }
        let isLandscape = width > height
        var header24 = rounded(63 * luminance.dc)
        header24 |= rounded(31.5 + 31.5 * opponentP.dc) << 6
        header24 |= rounded(31.5 + 31.5 * opponentQ.dc) << 12
        header24 |= rounded(31 * luminance.scale) << 18
        if hasAlpha { header24 |= 1 << 23 }
        var header16 = isLandscape ? ly : lx
        header16 |= rounded(63 * opponentP.scale) << 3
        header16 |= rounded(63 * opponentQ.scale) << 9
        if isLandscape { header16 |= 1 << 15 }
        let acs = [luminance.ac, opponentP.ac, opponentQ.ac] + (hasAlpha ? [transparency.ac] : [])
        let acCount = acs.reduce(0) { $0 + $1.count }
        let start = hasAlpha ? 6 : 5
        var hash = [UInt8](repeating: 0, count: start + (acCount + 1) / 2)
        hash[0] = UInt8(header24 & 255)
        hash[1] = UInt8((header24 >> 8) & 255)
        hash[2] = UInt8((header24 >> 16) & 255)
        hash[3] = UInt8(header16 & 255)
        hash[4] = UInt8((header16 >> 8) & 255)
        if hasAlpha { hash[5] = UInt8(rounded(15 * transparency.dc) | rounded(15 * transparency.scale) << 4) }
        var index = 0
        for ac in acs {
            for value in ac {
                hash[start + index / 2] |= UInt8(rounded(15 * value) << ((index & 1) * 4))
                index += 1
            }
        }
        return hash
    }

    /// The DC, the AC scaled into 0...1 by their largest magnitude, and that magnitude.
    private static func encodeChannel(_ channel: [Double], width: Int, height: Int, nx: Int, ny: Int) -> (dc: Double, ac: [Double], scale: Double) {
        var dc = 0.0, ac: [Double] = [], scale = 0.0
        for cy in 0..<ny {
            var cx = 0
            while cx * ny < nx * (ny - cy) {
                let across = (0..<width).map { cos(Double.pi / Double(width) * Double(cx) * (Double($0) + 0.5)) }
                var sum = 0.0
                for y in 0..<height {
                    let down = cos(Double.pi / Double(height) * Double(cy) * (Double(y) + 0.5))
                    for x in 0..<width { sum += channel[x + y * width] * across[x] * down }
                }
                sum /= Double(width * height)
                if cx > 0 || cy > 0 {
                    ac.append(sum)
                    scale = max(scale, abs(sum))
                } else {
                    dc = sum
                }
                cx += 1
            }
        }
        if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
        return (dc, ac, scale)
    }
}
