/// The weights of red and blue in luma, which define a Y'CbCr colour matrix.
public struct YCbCrMatrix: Sendable, Equatable {
    public let redWeight: Double
    public let blueWeight: Double

    public init(redWeight: Double, blueWeight: Double) {
        self.redWeight = redWeight
        self.blueWeight = blueWeight
    }

    public static let bt601 = YCbCrMatrix(redWeight: 0.299, blueWeight: 0.114)
    public static let bt709 = YCbCrMatrix(redWeight: 0.2126, blueWeight: 0.0722)
    public static let bt2020 = YCbCrMatrix(redWeight: 0.2627, blueWeight: 0.0593)
    public static let fcc = YCbCrMatrix(redWeight: 0.30, blueWeight: 0.11)
    public static let smpte240m = YCbCrMatrix(redWeight: 0.212, blueWeight: 0.087)

    var greenWeight: Double { 1 - redWeight - blueWeight }

    /// R' = Y' + crToRed·Cr'
    var crToRed: Double { 2 * (1 - redWeight) }
    /// B' = Y' + cbToBlue·Cb'
    var cbToBlue: Double { 2 * (1 - blueWeight) }
    /// G' = Y' - cbToGreen·Cb' - crToGreen·Cr'
    var cbToGreen: Double { 2 * blueWeight * (1 - blueWeight) / greenWeight }
    var crToGreen: Double { 2 * redWeight * (1 - redWeight) / greenWeight }
}

extension YCbCrMatrix {
    /// 16-bit Y'CbCr samples (little-endian, as libswscale widens 8 to 12-bit ones: the code
    /// values shifted up) to 16-bit R'G'B' (little-endian, full range), `count` pixels. Limited range
    /// is 16-235 and 16-240 in 8-bit terms.
    public func rgb16(y: UnsafePointer<UInt16>, cb: UnsafePointer<UInt16>, cr: UnsafePointer<UInt16>, count: Int,
                      isFullRange: Bool, into output: UnsafeMutablePointer<UInt16>) {
        let lumaOffset: Float = isFullRange ? 0 : 16 * 256, lumaScale: Float = isFullRange ? 1 / 65535 : 1 / (219 * 256)
        let chromaScale: Float = isFullRange ? 1 / 65535 : 1 / (224 * 256)
        let red = Float(crToRed), blue = Float(cbToBlue), greenCb = Float(cbToGreen), greenCr = Float(crToGreen)
        for pixel in 0..<count {
            let luma = (Float(UInt16(littleEndian: y[pixel])) - lumaOffset) * lumaScale
            let u = (Float(UInt16(littleEndian: cb[pixel])) - 32768) * chromaScale
            let v = (Float(UInt16(littleEndian: cr[pixel])) - 32768) * chromaScale
            let rgb = (luma + red * v, luma - greenCb * u - greenCr * v, luma + blue * u)
            output[3 * pixel] = UInt16(min(max(rgb.0, 0), 1) * 65535 + 0.5).littleEndian
            output[3 * pixel + 1] = UInt16(min(max(rgb.1, 0), 1) * 65535 + 0.5).littleEndian
            output[3 * pixel + 2] = UInt16(min(max(rgb.2, 0), 1) * 65535 + 0.5).littleEndian
        }
    }
}
