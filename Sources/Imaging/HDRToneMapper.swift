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
    /// Signal (16-bit, full range) to linear light: relative to reference white for PQ, scene
    /// light (0...1) for HLG, whose OOTF depends on the pixel's luminance.
    private let linear: [Float]
    /// Linear 0...1 in 1/16383 steps to 8-bit sRGB.
    private let encode: [UInt8]

    /// `peakNits`: the mastering display's or the content's peak, if known.
    public init(transfer: HDRTransfer, peakNits: Double?) {
        self.transfer = transfer
        let nominal: Double = transfer == .hlg ? 1000 : 10000
        let nits = max(Double(Self.referenceWhite) * 1.5, min(peakNits ?? nominal, 10000))
        peak = Float(nits) / Self.referenceWhite
        linear = (0..<65536).map { code in
            let signal = Double(code) / 65535
            switch transfer {
            case .pq: return Float(Self.pqToNits(signal)) / Self.referenceWhite
            case .hlg: return Float(Self.hlgToScene(signal))
            }
        }
        encode = (0..<16384).map { step in
            let value = Double(step) / 16383
            let encoded = value <= 0.0031308 ? 12.92 * value : 1.055 * pow(value, 1 / 2.4) - 0.055
            return UInt8(max(0, min(255, (encoded * 255).rounded())))
        }
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
        // HLG's OOTF for the nominal 1000 cd/m² display: gamma 1.2, in units of reference white.
        let hlgScale: Float = 1000 / Self.referenceWhite
        for pixel in 0..<count {
            var r = linear[Int(UInt16(littleEndian: samples[3 * pixel]))]
            var g = linear[Int(UInt16(littleEndian: samples[3 * pixel + 1]))]
            var b = linear[Int(UInt16(littleEndian: samples[3 * pixel + 2]))]
            if transfer == .hlg {
                let scene = 0.2627 * r + 0.6780 * g + 0.0593 * b
                let gain = scene > 0 ? hlgScale * powf(scene, 0.2) : 0
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
            output[3 * pixel] = encode[Int(min(max(r709, 0), 1) * 16383 + 0.5)]
            output[3 * pixel + 1] = encode[Int(min(max(g709, 0), 1) * 16383 + 0.5)]
            output[3 * pixel + 2] = encode[Int(min(max(b709, 0), 1) * 16383 + 0.5)]
        }
    }
}
