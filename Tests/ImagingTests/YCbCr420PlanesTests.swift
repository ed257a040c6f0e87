import Imaging
import Testing

@Suite struct YCbCr420PlanesTests {
    /// Planes in test memory, chroma given a sample at a time.
    struct Picture {
        let width: Int
        let height: Int
        var luma: [UInt8]
        var cb: [UInt8]
        var cr: [UInt8]

        init(width: Int, height: Int, luma: UInt8, cb: UInt8, cr: UInt8) {
            self.width = width
            self.height = height
            self.luma = [UInt8](repeating: luma, count: width * height)
            let chromaCount = (width + 1) / 2 * ((height + 1) / 2)
            self.cb = [UInt8](repeating: cb, count: chromaCount)
            self.cr = [UInt8](repeating: cr, count: chromaCount)
        }

        var chromaWidth: Int { (width + 1) / 2 }
        var chromaHeight: Int { (height + 1) / 2 }

        func rgb(_ matrix: YCbCrMatrix = .bt709, fullRange: Bool = false,
                 siting: YCbCr420Planes.ChromaSiting = .left) -> PixelBuffer {
            luma.withUnsafeBufferPointer { y in
                cb.withUnsafeBufferPointer { u in
                    cr.withUnsafeBufferPointer { v in
                        YCbCr420Planes(
                            width: width, height: height,
                            luma: .init(start: y.baseAddress!, stride: width),
                            cb: .init(start: u.baseAddress!, stride: chromaWidth),
                            cr: .init(start: v.baseAddress!, stride: chromaWidth),
                            matrix: matrix, isFullRange: fullRange, siting: siting
                        ).rgb()
                    }
                }
            }
        }
    }

    /// The Y'CbCr code values of an RGB colour, by the textbook forward transform (rounded).
    static func encode(_ rgb: [Double], _ matrix: YCbCrMatrix, fullRange: Bool) -> (UInt8, UInt8, UInt8) {
        let (kr, kb) = (matrix.redWeight, matrix.blueWeight)
        let (r, g, b) = (rgb[0] / 255, rgb[1] / 255, rgb[2] / 255)
        let y = kr * r + (1 - kr - kb) * g + kb * b
        let pb = (b - y) / (2 * (1 - kb)), pr = (r - y) / (2 * (1 - kr))
        let code = { (value: Double) in UInt8(max(0, min(255, value.rounded()))) }
        if fullRange { return (code(y * 255), code(128 + pb * 255), code(128 + pr * 255)) }
        return (code(16 + y * 219), code(128 + pb * 224), code(128 + pr * 224))
    }

    static let colours: [[Double]] = [
        [191, 191, 191], [191, 191, 0], [0, 191, 191], [0, 191, 0], [191, 0, 191], [191, 0, 0], [0, 0, 191],
        [16, 16, 16], [255, 255, 255], [0, 0, 0], [200, 120, 40], [30, 90, 220],
    ]

    @Test(arguments: [(YCbCrMatrix.bt601, false), (.bt709, false), (.bt709, true), (.bt2020, false), (.bt601, true)])
    func flatColoursComeBackWithinOneLevel(matrix: YCbCrMatrix, fullRange: Bool) {
        for colour in Self.colours {
            let (y, cb, cr) = Self.encode(colour, matrix, fullRange: fullRange)
            let rgb = Picture(width: 6, height: 4, luma: y, cb: cb, cr: cr).rgb(matrix, fullRange: fullRange)
            #expect((rgb.width, rgb.height, rgb.channels) == (6, 4, 3))
            for index in 0..<(6 * 4) {
                let found = rgb.pixel(x: index % 6, y: index / 6)
                let error = zip(found, colour).map { abs(Double($0) - $1) }.max()!
                #expect(error <= 1, "\(colour) came back as \(found)")
            }
        }
    }

    @Test func limitedRangeBeyondNominalClampsInsteadOfWrapping() {
        let below = Picture(width: 2, height: 2, luma: 0, cb: 128, cr: 128).rgb()
        let above = Picture(width: 2, height: 2, luma: 255, cb: 128, cr: 128).rgb()
        #expect(below.pixel(x: 0, y: 0) == [0, 0, 0])
        #expect(above.pixel(x: 1, y: 1) == [255, 255, 255])
    }

    /// Chroma 0 then 255 in one chroma row; luma grey, full range, BT.601 (R' = Y' + 1.402 Cr').
    static func redEdge(width: Int) -> Picture {
        var picture = Picture(width: width, height: 2, luma: 128, cb: 128, cr: 128)
        for i in 0..<picture.chromaWidth { picture.cr[i] = i < picture.chromaWidth / 2 ? 64 : 192 }
        return picture
    }

    @Test func leftSitedChromaIsTakenOnEvenColumnsAndAveragedBetween() {
        let rgb = Self.redEdge(width: 8).rgb(.bt601, fullRange: true, siting: .left)
        // Chroma samples 0...1 hold Cr 64 and 2...3 hold 192: luma columns 0...3 are on 64, column 3
        // sits halfway to the next sample, column 4 on 192.
        let reds = (0..<8).map { Int(rgb.pixel(x: $0, y: 0)[0]) }
        let low = 128 + Int((1.402 * -64).rounded()), high = 128 + Int((1.402 * 64).rounded())
        #expect(reds == [low, low, low, 128, high, high, high, high])
    }

    @Test func centreSitedChromaIsBlendedAQuarterFromTheNeighbour() {
        let rgb = Self.redEdge(width: 8).rgb(.bt601, fullRange: true, siting: .center)
        let reds = (0..<8).map { Int(rgb.pixel(x: $0, y: 0)[0]) }
        // Columns 3 and 4 lie a quarter sample from the edge: Cr 96 and 160.
        let quarter = Int((1.402 * 32).rounded()), full = Int((1.402 * 64).rounded())
        #expect(reds == [128 - full, 128 - full, 128 - full, 128 - quarter, 128 + quarter, 128 + full, 128 + full, 128 + full])
    }

    @Test func chromaRowsAreBlendedAQuarterFromTheNearerRow() {
        var picture = Picture(width: 2, height: 4, luma: 128, cb: 128, cr: 128)
        picture.cr = [64, 192]
        let reds = (0..<4).map { Int(picture.rgb(.bt601, fullRange: true).pixel(x: 0, y: $0)[0]) }
        let quarter = Int((1.402 * 32).rounded()), full = Int((1.402 * 64).rounded())
        #expect(reds == [128 - full, 128 - quarter, 128 + quarter, 128 + full])
    }

    @Test(arguments: [(1, 1), (3, 3), (9, 5), (17, 2), (33, 1)])
    func oddSizesUseTheirOwnLastSamples(width: Int, height: Int) {
        var picture = Picture(width: width, height: height, luma: 128, cb: 128, cr: 128)
        picture.cr[picture.chromaWidth - 1] = 192
        let rgb = picture.rgb(.bt601, fullRange: true)
        #expect((rgb.width, rgb.height) == (width, height))
        #expect(rgb.bytes.count == width * height * 3)
        // The last column, on the last chroma sample, is as red as that sample says.
        #expect(Int(rgb.pixel(x: width - 1, y: 0)[0]) == 128 + Int((1.402 * 64).rounded()))
    }

    @Test func stridesWiderThanTheRowAreHonoured() {
        let width = 4, height = 2, stride = 16
        var luma = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height { for x in 0..<width { luma[y * stride + x] = 235 } }
        let chroma = [UInt8](repeating: 128, count: stride)
        let rgb = luma.withUnsafeBufferPointer { y in
            chroma.withUnsafeBufferPointer { c in
                YCbCr420Planes(width: width, height: height, luma: .init(start: y.baseAddress!, stride: stride),
                               cb: .init(start: c.baseAddress!, stride: stride), cr: .init(start: c.baseAddress!, stride: stride),
                               matrix: .bt709, isFullRange: false, siting: .left).rgb()
            }
        }
        #expect(rgb.bytes == [UInt8](repeating: 255, count: width * height * 3))
    }
}
