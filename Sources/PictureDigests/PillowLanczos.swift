import Glibc

/// Pillow's `Image.resize(size, LANCZOS)` of an 8-bit grey picture, as its Resample.c does it: a
/// Lanczos-3 kernel stretched by the reduction, coefficients in 22-bit fixed point, the rows first
/// and then the columns, rounding to 8 bits after each pass. ImageHash reduces with it, and a hash
/// compares neighbours that may differ by one level, so the same arithmetic gives the same bits.
enum PillowLanczos {
    private static let precisionBits = 22

    static func resize(_ grey: [UInt8], width: Int, height: Int, toWidth targetWidth: Int, toHeight targetHeight: Int) -> [UInt8] {
        precondition(grey.count == width * height && targetWidth >= 1 && targetHeight >= 1)
        var pixels = grey, currentWidth = width
        if targetWidth != width {
            let across = coefficients(inputSize: width, outputSize: targetWidth)
            var rows = [UInt8](repeating: 0, count: targetWidth * height)
            for y in 0..<height {
                for x in 0..<targetWidth {
                    let (first, weights) = across[x]
                    var sum = 1 << (precisionBits - 1)
                    for (offset, weight) in weights.enumerated() { sum += Int(pixels[y * width + first + offset]) * weight }
                    rows[y * targetWidth + x] = clipped(sum)
                }
            }
            pixels = rows
            currentWidth = targetWidth
        }
        guard targetHeight != height else { return pixels }
        let down = coefficients(inputSize: height, outputSize: targetHeight)
        var result = [UInt8](repeating: 0, count: currentWidth * targetHeight)
        for y in 0..<targetHeight {
            let (first, weights) = down[y]
            for x in 0..<currentWidth {
                var sum = 1 << (precisionBits - 1)
                for (offset, weight) in weights.enumerated() { sum += Int(pixels[(first + offset) * currentWidth + x]) * weight }
                result[y * currentWidth + x] = clipped(sum)
            }
        }
        return result
    }

    private static func clipped(_ sum: Int) -> UInt8 {
        UInt8(max(0, min(255, sum >> precisionBits)))
    }

    /// For each output sample, its first input sample and the fixed-point weights from there.
    private static func coefficients(inputSize: Int, outputSize: Int) -> [(first: Int, weights: [Int])] {
        let scale = Double(inputSize) / Double(outputSize)
        let filterScale = max(scale, 1)
        let support = 3 * filterScale
        return (0..<outputSize).map { output in
            let centre = (Double(output) + 0.5) * scale
            let first = max(Int(centre - support + 0.5), 0)
            let end = min(Int(centre + support + 0.5), inputSize)
            var weights = (first..<max(first, end)).map { lanczos((Double($0) - centre + 0.5) / filterScale) }
            let total = weights.reduce(0, +)
            if total != 0 { weights = weights.map { $0 / total } }
            let scaleBits = Double(1 << precisionBits)
            return (first, weights.map { $0 < 0 ? Int(-0.5 + $0 * scaleBits) : Int(0.5 + $0 * scaleBits) })
        }
    }

    private static func lanczos(_ x: Double) -> Double {
        guard -3 <= x && x < 3 else { return 0 }
        return sinc(x) * sinc(x / 3)
    }

    private static func sinc(_ x: Double) -> Double {
        if x == 0 { return 1 }
        let angle = x * Double.pi
        return sin(angle) / angle
    }
}
