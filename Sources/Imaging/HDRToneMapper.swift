import Glibc

/// The HDR transfer functions of BT.2100.
public enum HDRTransfer: Sendable {
    /// SMPTE ST 2084, absolute: 1.0 is 10000 cd/m².
    case pq
    /// ARIB STD-B67, relative to a nominal 1000 cd/m² display.
    case hlg
}

/// BT.2100 pictures (BT.2020 primaries, PQ or HLG) to SDR sRGB for a thumbnail.
///
/// Linear light relative to HDR reference white (203 cd/m², BT.2408), so that SDR-origin content
/// comes back as it was: in BT.709 primaries, the largest channel is kept up to a knee just under
/// reference white (0.96) and rolled off above by an extended Reinhard shoulder that reaches SDR
/// white exactly at the picture's peak (mastering or content light level, else 1000 cd/m² for HLG
/// and 10000 for PQ): monotonic, no hard clip; the other channels are scaled with it, so hue and
/// saturation are kept. Colours outside BT.709 are desaturated toward their luminance, never
/// clipped per channel.
public struct HDRToneMapper: Sendable {
    public static let referenceWhite: Float = 203
    /// Where the roll-off starts, relative to reference white: 75% HLG bars (reference white)
    /// come back within 2 levels of SDR white.
    static let knee: Float = 0.96

    let transfer: HDRTransfer
    /// The peak relative to reference white, where the shoulder reaches SDR white.
    let peak: Float
    private let tables: Tables

    /// The lookup tables, read by every worker, written only when made.
    final class Tables: @unchecked Sendable {
        /// Signal (16-bit, full range) to linear light: relative to reference white for PQ, scene
        /// light (0...1) for HLG, whose OOTF depends on the pixel's luminance.
        let linear: UnsafeMutablePointer<Float>
        /// HLG's OOTF gain for scene luminance 0...1 in 1/65535 steps: 1000 cd/m² · Ys^0.2, in units
        /// of reference white (a power per pixel cost more than the rest of the mapping).
        let hlgGain: UnsafeMutablePointer<Float>
        /// Linear 0...1 in 1/16383 steps to 8-bit sRGB.
        let encode: UnsafeMutablePointer<UInt8>

        init(linear: [Float], hlgGain: [Float], encode: [UInt8]) {
            self.linear = .allocate(capacity: linear.count)
            self.linear.initialize(from: linear, count: linear.count)
            self.hlgGain = .allocate(capacity: max(1, hlgGain.count))
            self.hlgGain.initialize(from: hlgGain, count: hlgGain.count)
            self.encode = .allocate(capacity: encode.count)
            self.encode.initialize(from: encode, count: encode.count)
        }

        deinit {
            linear.deallocate()
            hlgGain.deallocate()
            encode.deallocate()
        }
    }

    /// `peakNits`: the mastering display's or the content's peak, if known.
    public init(transfer: HDRTransfer, peakNits: Double?) {
        self.transfer = transfer
        let nominal: Double = transfer == .hlg ? 1000 : 10000
        let nits = max(Double(Self.referenceWhite) * 1.5, min(peakNits ?? nominal, 10000))
        peak = Float(nits) / Self.referenceWhite
        let linear: [Float] = (0..<65536).map { code in
            let signal = Double(code) / 65535
            switch transfer {
            case .pq: return Float(Self.pqToNits(signal)) / Self.referenceWhite
            case .hlg: return Float(Self.hlgToScene(signal))
            }
        }
        let hlgGain: [Float] = transfer == .hlg ? (0..<65536).map { step in
            step == 0 ? 0 : Float(1000 * pow(Double(step) / 65535, 0.2)) / Self.referenceWhite
        } : []
        let encode: [UInt8] = (0..<16384).map { step in
            let value = Double(step) / 16383
            let encoded = value <= 0.0031308 ? 12.92 * value : 1.055 * pow(value, 1 / 2.4) - 0.055
            return UInt8(max(0, min(255, (encoded * 255).rounded())))
        }
        tables = Tables(linear: linear, hlgGain: hlgGain, encode: encode)
    }

    /// SMPTE ST 2084 EOTF: signal 0...1 to cd/m².
    static func pqToNits(_ signal: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
        let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let power = pow(signal, 1 / m2)
        return 10000 * pow(max(power - c1, 0) / (c2 - c3 * power), 1 / m1)
    }

    /// ARIB STD-B67 inverse OETF: signal 0...1 to scene light 0...1.
    static func hlgToScene(_ signal: Double) -> Double {
        let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
        return signal <= 0.5 ? signal * signal / 3 : (exp((signal - c) / a) + b) / 12
    }

    /// The curve, relative to reference white: identity to the knee, then the shoulder.
    func toneMap(_ luminance: Float) -> Float {
        let knee = Self.knee
        if luminance <= knee { return luminance }
        let x = (luminance - knee) / (1 - knee), white = (peak - knee) / (1 - knee)
        let y = x * (1 + x / (white * white)) / (1 + x)
        return knee + (1 - knee) * min(y, 1)
    }

    /// 16-bit R'G'B' samples (little-endian, BT.2020, full range), `count` pixels, to 8-bit sRGB RGB.
    public func map(_ samples: UnsafeBufferPointer<UInt16>, count: Int, into output: UnsafeMutablePointer<UInt8>) {
        let lookup = Lookup(tables)
        for pixel in 0..<count {
            mapPixel(Int(UInt16(littleEndian: samples[3 * pixel])), Int(UInt16(littleEndian: samples[3 * pixel + 1])),
                     Int(UInt16(littleEndian: samples[3 * pixel + 2])), lookup, into: output + 3 * pixel)
        }
    }

    /// The tables' pointers, taken once a row: touching the shared tables object for each pixel
    /// counted references on every core's behalf, and that took most of the time.
    struct Lookup {
        let linear: UnsafeMutablePointer<Float>
        let hlgGain: UnsafeMutablePointer<Float>
        let encode: UnsafeMutablePointer<UInt8>

        init(_ tables: Tables) {
            linear = tables.linear
            hlgGain = tables.hlgGain
            encode = tables.encode
        }
    }

    /// 16-bit Y'CbCr samples (little-endian, 8 to 12-bit codes shifted up, as libswscale widens
    /// them), `count` pixels, read with `matrix` and range, to 8-bit sRGB RGB.
    public func map(y: UnsafePointer<UInt16>, cb: UnsafePointer<UInt16>, cr: UnsafePointer<UInt16>, count: Int,
                    matrix: YCbCrMatrix, isFullRange: Bool, into output: UnsafeMutablePointer<UInt8>) {
        // To 0...65535 signals: luma from its range, chroma about its middle.
        let lumaOffset: Float = isFullRange ? 0 : 16 * 256
        let lumaScale: Float = isFullRange ? 1 : 65535 / (219 * 256), chromaScale: Float = isFullRange ? 1 : 65535 / (224 * 256)
        let red = Float(matrix.crToRed) * chromaScale, blue = Float(matrix.cbToBlue) * chromaScale
        let greenCb = Float(matrix.cbToGreen) * chromaScale, greenCr = Float(matrix.crToGreen) * chromaScale
        let lookup = Lookup(tables)
        for pixel in 0..<count {
            let luma = (Float(UInt16(littleEndian: y[pixel])) - lumaOffset) * lumaScale
            let u = Float(UInt16(littleEndian: cb[pixel])) - 32768, v = Float(UInt16(littleEndian: cr[pixel])) - 32768
            mapPixel(Self.code(luma + red * v), Self.code(luma - greenCb * u - greenCr * v), Self.code(luma + blue * u),
                     lookup, into: output + 3 * pixel)
        }
    }

    @inline(__always)
    static func code(_ value: Float) -> Int { Int(min(max(value, 0), 65535) + 0.5) }

    /// One pixel of 16-bit R'G'B' codes to 8-bit sRGB.
    @inline(__always)
    private func mapPixel(_ redCode: Int, _ greenCode: Int, _ blueCode: Int, _ lookup: Lookup, into output: UnsafeMutablePointer<UInt8>) {
        do {
            let linear = lookup.linear
            var r = linear[redCode], g = linear[greenCode], b = linear[blueCode]
            if transfer == .hlg {
                let scene = min(0.2627 * r + 0.6780 * g + 0.0593 * b, 1)
                let gain = lookup.hlgGain[Int(scene * 65535 + 0.5)]
                r *= gain; g *= gain; b *= gain
            }
            // BT.2020 to BT.709 primaries.
            var r709 = 1.6605 * r - 0.5876 * g - 0.0728 * b
            var g709 = -0.1246 * r + 1.1329 * g - 0.0083 * b
            var b709 = -0.0182 * r - 0.1006 * g + 1.1187 * b
            // Tone map the largest channel and scale the others with it: the hue and saturation
            // are kept, and nothing is left above 1 (a red ramp stays red up to SDR red).
            let high = max(r709, g709, b709)
            if high > Self.knee {
                let scale = toneMap(high) / high
                r709 *= scale; g709 *= scale; b709 *= scale
            }
            // Outside BT.709 (a negative channel): toward the luminance, as little as brings the channel
            // to within a noise margin of 0, then clipped. Desaturating all the way for coding noise
            // would lift the other channels that should be 0 (green's blue in 75% bars).
            let low = min(r709, g709, b709)
            let margin: Float = 0.02
            if low < -margin {
                let y = min(max(0.2126 * r709 + 0.7152 * g709 + 0.0722 * b709, 0), 1)
                let keep = (y + margin) / (y - low)
                r709 = y + (r709 - y) * keep
                g709 = y + (g709 - y) * keep
                b709 = y + (b709 - y) * keep
            }
            let encode = lookup.encode
            output[0] = encode[Int(min(max(r709, 0), 1) * 16383 + 0.5)]
            output[1] = encode[Int(min(max(g709, 0), 1) * 16383 + 0.5)]
            output[2] = encode[Int(min(max(b709, 0), 1) * 16383 + 0.5)]
        }
    }
}
