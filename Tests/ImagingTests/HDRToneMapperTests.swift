import Testing
@testable import Imaging

@Suite struct HDRToneMapperTests {
    static func map(_ signals: [Double], _ transfer: HDRTransfer, peak: Double? = nil) -> [UInt8] {
        let samples = signals.map { UInt16(($0 * 65535).rounded()).littleEndian }
        var output = [UInt8](repeating: 0, count: samples.count)
        samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { HDRToneMapper(transfer: transfer, peakNits: peak).map(input, count: samples.count / 3, into: $0.baseAddress!) }
        }
        return output
    }

    /// 75% HLG bars (BT.709 colours at reference white in the BT.2020 container) come back as SDR 100% bars.
    @Test func hlgBarsComeBackAsSDRBars() {
        let yellow = Self.map([0.7436, 0.7501, 0.2898], .hlg)
        #expect(yellow[0] >= 252 && yellow[1] >= 252 && yellow[2] <= 3, "\(yellow)")
        let green = Self.map([0.5260, 0.7472, 0.2725], .hlg)
        #expect(green[0] <= 3 && green[1] >= 252 && green[2] <= 3, "\(green)")
        let white = Self.map([0.75, 0.75, 0.75], .hlg)
        #expect(white.allSatisfy { $0 >= 252 }, "\(white)")
    }

    /// Eight pixels at a time (AVX2), four (SSE2) and one give the same bytes, over Y'CbCr codes
    /// from black to beyond white in every direction, bright enough for the curve's knee and
    /// saturated enough for the gamut's: the vector paths are the scalar one, lane by lane.
    @Test(arguments: [HDRTransfer.hlg, .pq])
    func everyVectorWidthGivesTheScalarBytes(transfer: HDRTransfer) {
        var y: [UInt16] = [], cb: [UInt16] = [], cr: [UInt16] = []
        for luma in stride(from: 0, through: 65535, by: 2979) {
            for blue in stride(from: 0, through: 65535, by: 3277) {
                for red in stride(from: 0, through: 65535, by: 3641) {
                    y.append(UInt16(luma).littleEndian)
                    cb.append(UInt16(blue).littleEndian)
                    cr.append(UInt16(red).littleEndian)
                }
            }
        }
        let count = y.count - 3  // a tail that no vector fills
        let mapper = HDRToneMapper(transfer: transfer, peakNits: 1000)
        func mapped(lanes: Int) -> [UInt8] {
            var output = [UInt8](repeating: 0, count: count * 3)
            output.withUnsafeMutableBufferPointer { output in
                mapper.map(y: y, cb: cb, cr: cr, count: count, matrix: .bt2020, isFullRange: false, into: output.baseAddress!, mostLanes: lanes)
            }
            return output
        }
        let scalar = mapped(lanes: 1)
        #expect(Set(scalar).count > 200, "the codes cover the range")
        #expect(mapped(lanes: 4) == scalar)
        #expect(mapped(lanes: 8) == scalar)
    }
}
