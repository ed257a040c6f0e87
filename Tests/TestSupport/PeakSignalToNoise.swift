import Foundation

/// How close two pictures of 8-bit samples are: the peak signal-to-noise ratio in dB (infinity when
/// they are equal), over the shorter's samples.
public func peakSignalToNoise(_ a: [UInt8], _ b: [UInt8]) -> Double {
    let squares = zip(a, b).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) }
    return squares == 0 ? .infinity : 10 * log10(255 * 255 / (squares / Double(min(a.count, b.count))))
}

/// The same over the luma (BT.601 Y′) of two 8-bit RGB pictures: what lossy formats keep at full
/// resolution, where their colour is kept at half (WebP's 4:2:0).
public func lumaPeakSignalToNoise(_ a: [UInt8], _ b: [UInt8]) -> Double {
    func luma(_ rgb: [UInt8]) -> [Double] {
        stride(from: 0, to: rgb.count - 2, by: 3).map { (at: Int) -> Double in
            let red = 0.299 * Double(rgb[at]), green = 0.587 * Double(rgb[at + 1]), blue = 0.114 * Double(rgb[at + 2])
            return red + green + blue
        }
    }
    let squares = zip(luma(a), luma(b)).reduce(0.0) { (sum: Double, pair: (Double, Double)) -> Double in
        sum + (pair.0 - pair.1) * (pair.0 - pair.1)
    }
    return squares == 0 ? .infinity : 10 * log10(255 * 255 / (squares / Double(min(a.count, b.count) / 3)))
}
