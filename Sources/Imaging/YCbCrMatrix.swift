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
    /// Y' of R'G'B' and its Cb and Cr, full range, in the samples' own scale (Cb and Cr about
    /// 0: an encoder adds half its range): what the AVIF encoders write.
    @inline(__always)
    public func fullRange(red: Double, green: Double, blue: Double) -> (luma: Double, cb: Double, cr: Double) {
        let luma = redWeight * red + greenWeight * green + blueWeight * blue
        return (luma, (blue - luma) * (1 / cbToBlue), (red - luma) * (1 / crToRed))
    }

    /// 16-bit Y'CbCr samples (little-endian, 8 to 12-bit codes shifted up, as libswscale widens
    /// them) to 16-bit R'G'B' (big-endian, as PNG stores them, full range), `count` pixels.
    public func rgb16(y: UnsafePointer<UInt16>, cb: UnsafePointer<UInt16>, cr: UnsafePointer<UInt16>, count: Int,
                      isFullRange: Bool, into output: UnsafeMutablePointer<UInt16>) {
        let lumaOffset: Float = isFullRange ? 0 : 16 * 256
        let lumaScale: Float = isFullRange ? 1 : 65535 / (219 * 256), chromaScale: Float = isFullRange ? 1 : 65535 / (224 * 256)
        let red = Float(crToRed) * chromaScale, blue = Float(cbToBlue) * chromaScale
        let greenCb = Float(cbToGreen) * chromaScale, greenCr = Float(crToGreen) * chromaScale
        func sample(_ value: Float) -> UInt16 { UInt16(min(max(value, 0), 65535) + 0.5).bigEndian }
        for pixel in 0..<count {
            let luma = (Float(UInt16(littleEndian: y[pixel])) - lumaOffset) * lumaScale
            let u = Float(UInt16(littleEndian: cb[pixel])) - 32768, v = Float(UInt16(littleEndian: cr[pixel])) - 32768
            output[3 * pixel] = sample(luma + red * v)
            output[3 * pixel + 1] = sample(luma - greenCb * u - greenCr * v)
            output[3 * pixel + 2] = sample(luma + blue * u)
        }
    }
}
