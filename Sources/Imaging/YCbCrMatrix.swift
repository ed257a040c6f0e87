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
