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
}
