import CToneMap
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

    /// The lookup tables, read by every worker. (Unchecked Sendable: written only when made,
    /// before any worker is given them.)
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
        tables = transfer == .hlg ? Self.hlgTables : Self.pqTables
    }

    /// The tables depend on the transfer alone: made once each, when first needed (a web video
    /// made them again for each of its frames, 130,000 powers a frame).
    private static let hlgTables = tables(for: .hlg)
    private static let pqTables = tables(for: .pq)

    private static func tables(for transfer: HDRTransfer) -> Tables {
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
        return Tables(linear: linear, hlgGain: hlgGain, encode: encode)
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

    /// 16-bit R'G'B' samples (little-endian, BT.2020, full range), `count` pixels, to 8-bit sRGB RGB.
    public func map(_ samples: UnsafeBufferPointer<UInt16>, count: Int, into output: UnsafeMutablePointer<UInt8>) {
        var kernel = kernel(luma: (0, 1), chroma: (0, 0, 0, 0))
        withExtendedLifetime(tables) {
            mt_tone_map_rgb(&kernel, samples.baseAddress, Int32(count), output)
        }
    }

    /// The per-pixel loop's settings (CToneMap): these tables and curve, and how Y'CbCr becomes R'G'B'.
    private func kernel(luma: (offset: Float, scale: Float), chroma: (red: Float, greenCb: Float, greenCr: Float, blue: Float)) -> mt_tone_map {
        mt_tone_map(linear: tables.linear, hlg_gain: transfer == .hlg ? UnsafePointer(tables.hlgGain) : nil,
                    encode: tables.encode, knee: Self.knee, peak: peak, luma_offset: luma.offset, luma_scale: luma.scale,
                    cr_to_red: chroma.red, cb_to_green: chroma.greenCb, cr_to_green: chroma.greenCr, cb_to_blue: chroma.blue)
    }

    /// 16-bit Y'CbCr samples (little-endian, 8 to 12-bit codes shifted up, as libswscale widens
    /// them), `count` pixels, read with `matrix` and range, to 8-bit sRGB RGB.
    public func map(y: UnsafePointer<UInt16>, cb: UnsafePointer<UInt16>, cr: UnsafePointer<UInt16>, count: Int,
                    matrix: YCbCrMatrix, isFullRange: Bool, into output: UnsafeMutablePointer<UInt8>) {
        map(y: y, cb: cb, cr: cr, count: count, matrix: matrix, isFullRange: isFullRange, into: output, mostLanes: 8)
    }

    /// `map(y:cb:cr:...)` at most `mostLanes` pixels at a time (1, 4 or 8), which give the same bytes.
    func map(y: UnsafePointer<UInt16>, cb: UnsafePointer<UInt16>, cr: UnsafePointer<UInt16>, count: Int,
             matrix: YCbCrMatrix, isFullRange: Bool, into output: UnsafeMutablePointer<UInt8>, mostLanes: Int) {
        // To 0...65535 signals: luma from its range, chroma about its middle.
        let lumaOffset: Float = isFullRange ? 0 : 16 * 256
        let lumaScale: Float = isFullRange ? 1 : 65535 / (219 * 256), chromaScale: Float = isFullRange ? 1 : 65535 / (224 * 256)
        let red = Float(matrix.crToRed) * chromaScale, blue = Float(matrix.cbToBlue) * chromaScale
        let greenCb = Float(matrix.cbToGreen) * chromaScale, greenCr = Float(matrix.crToGreen) * chromaScale
        var kernel = kernel(luma: (lumaOffset, lumaScale), chroma: (red, greenCb, greenCr, blue))
        // The tables are the mapper's, alive for as long as it is.
        withExtendedLifetime(tables) {
            mt_tone_map_ycbcr_lanes(&kernel, y, cb, cr, Int32(count), output, Int32(mostLanes))
        }
    }
}
