/// A picture held as 8-bit Y', Cb and Cr planes with chroma halved both ways (4:2:0), the layout
/// nearly every camera and codec delivers, in memory somebody else owns.
///
/// Turned into RGB with bilinear chroma (a chroma sample sits between two luma rows, and on the
/// even column or between two columns as `siting` says) and the picture's own matrix and range.
/// On flat colour it agrees with libswscale's accurate path within a level; at a chroma edge it is
/// sharper (swscale's filter spreads an edge over four pixels). 1080p takes 8 ms on one core here,
/// swscale 35 ms on two.
public struct YCbCr420Planes {
    public struct Plane {
        public let start: UnsafePointer<UInt8>
        public let stride: Int

        public init(start: UnsafePointer<UInt8>, stride: Int) {
            self.start = start
            self.stride = stride
        }
    }

    public typealias ChromaSiting = ChromaUpsampler.Siting

    public let width: Int
    public let height: Int
    public let luma: Plane
    public let cb: Plane
    public let cr: Plane
    public let matrix: YCbCrMatrix
    /// Full range: Y' and chroma over 0...255. Limited (studio) range: Y' over 16...235, chroma 16...240.
    public let isFullRange: Bool
    public let siting: ChromaSiting

    public init(width: Int, height: Int, luma: Plane, cb: Plane, cr: Plane, matrix: YCbCrMatrix,
                isFullRange: Bool, siting: ChromaSiting) {
        precondition(width > 0 && height > 0)
        self.width = width
        self.height = height
        self.luma = luma
        self.cb = cb
        self.cr = cr
        self.matrix = matrix
        self.isFullRange = isFullRange
        self.siting = siting
    }

    var chromaWidth: Int { (width + 1) / 2 }

    /// The picture as 8-bit RGB.
    public func rgb() -> PixelBuffer {
        let coefficients = Coefficients(matrix: matrix, isFullRange: isFullRange)
        let upsampler = ChromaUpsampler(width: width, height: height, siting: siting)
        // Blended chroma, ×4, one row per plane; then ×16 for every luma column of the row.
        let scratch = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * chromaWidth + 2 * width)
        defer { scratch.deallocate() }
        let cbBlend = scratch, crBlend = scratch + chromaWidth
        let cbRow = scratch + 2 * chromaWidth, crRow = cbRow + width
        return PixelBuffer(width: width, height: height, channels: 3) { destination in
            let output = destination.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for y in 0..<height {
                upsampler.blendRows(of: cb.start, stride: cb.stride, forLumaRow: y, into: cbBlend)
                upsampler.blendRows(of: cr.start, stride: cr.stride, forLumaRow: y, into: crBlend)
                upsampler.spread(cbBlend, into: cbRow)
                upsampler.spread(crBlend, into: crRow)
                Self.convertRow(luma: luma.start + y * luma.stride, cb: cbRow, cr: crRow, count: width,
                                into: output + y * width * 3, coefficients)
            }
        }
    }

    /// The matrix and range as integers: 20 fraction bits, chroma already ×16.
    struct Coefficients {
        static let shift: Int32 = 20
        let lumaOffset: Int32
        let lumaScale: Int32
        let crToRed: Int32
        let cbToGreen: Int32
        let crToGreen: Int32
        let cbToBlue: Int32

        init(matrix: YCbCrMatrix, isFullRange: Bool) {
            let one = Double(1 << Self.shift)
            let chromaScale = (isFullRange ? 1 : 255.0 / 224.0) / 16
            lumaOffset = isFullRange ? 0 : 16
            lumaScale = Int32((one * (isFullRange ? 1 : 255.0 / 219.0)).rounded())
            crToRed = Int32((one * chromaScale * matrix.crToRed).rounded())
            cbToGreen = Int32((one * chromaScale * matrix.cbToGreen).rounded())
            crToGreen = Int32((one * chromaScale * matrix.crToGreen).rounded())
            cbToBlue = Int32((one * chromaScale * matrix.cbToBlue).rounded())
        }
    }

    private static func convertRow(luma: UnsafePointer<UInt8>, cb: UnsafePointer<Int32>, cr: UnsafePointer<Int32>,
                                   count: Int, into output: UnsafeMutablePointer<UInt8>, _ c: Coefficients) {
        typealias Lanes = SIMD8<Int32>
        let lanes = Lanes.scalarCount
        let half = Lanes(repeating: 1 << (Coefficients.shift - 1))
        let centre = Lanes(repeating: 128 * 16)
        let zero = Lanes(repeating: 0), top = Lanes(repeating: 255)
        let lumaOffset = Lanes(repeating: c.lumaOffset), lumaScale = Lanes(repeating: c.lumaScale)
        let crToRed = Lanes(repeating: c.crToRed), cbToBlue = Lanes(repeating: c.cbToBlue)
        let cbToGreen = Lanes(repeating: c.cbToGreen), crToGreen = Lanes(repeating: c.crToGreen)
        let grouped = count / lanes * lanes
        var x = 0
        while x < grouped {
            let rawLuma = UnsafeRawPointer(luma + x).loadUnaligned(as: SIMD8<UInt8>.self)
            let y = (Lanes(truncatingIfNeeded: rawLuma) &- lumaOffset) &* lumaScale &+ half
            let u = UnsafeRawPointer(cb + x).loadUnaligned(as: Lanes.self) &- centre
            let v = UnsafeRawPointer(cr + x).loadUnaligned(as: Lanes.self) &- centre
            var red = (y &+ crToRed &* v) &>> Coefficients.shift
            var green = (y &- cbToGreen &* u &- crToGreen &* v) &>> Coefficients.shift
            var blue = (y &+ cbToBlue &* u) &>> Coefficients.shift
            red.clamp(lowerBound: zero, upperBound: top)
            green.clamp(lowerBound: zero, upperBound: top)
            blue.clamp(lowerBound: zero, upperBound: top)
            let pixels = output + x &* 3
            for lane in 0..<lanes {
                pixels[lane &* 3] = UInt8(truncatingIfNeeded: red[lane])
                pixels[lane &* 3 &+ 1] = UInt8(truncatingIfNeeded: green[lane])
                pixels[lane &* 3 &+ 2] = UInt8(truncatingIfNeeded: blue[lane])
            }
            x &+= lanes
        }
        for x in grouped..<count {
            let y = (Int32(luma[x]) &- c.lumaOffset) &* c.lumaScale &+ half[0]
            let u = cb[x] &- centre[0]
            let v = cr[x] &- centre[0]
            let pixel = output + x &* 3
            pixel[0] = UInt8(clamping: (y &+ c.crToRed &* v) &>> Coefficients.shift)
            pixel[1] = UInt8(clamping: (y &- c.cbToGreen &* u &- c.crToGreen &* v) &>> Coefficients.shift)
            pixel[2] = UInt8(clamping: (y &+ c.cbToBlue &* u) &>> Coefficients.shift)
        }
    }
}
