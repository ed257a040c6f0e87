import CPNGShim
import Imaging

/// A colour description as libpng's shim reads and writes it (iCCP, sRGB, gAMA, cHRM).
extension ColorDescription {
    init(_ info: mt_color_info) {
        self.init(iccProfile: info.icc_profile.map { Array(UnsafeBufferPointer(start: $0, count: Int(info.icc_profile_length))) },
                  srgbIntent: info.srgb_intent >= 0 ? Int(info.srgb_intent) : nil,
                  gamma: info.gamma > 0 ? Int(info.gamma) : nil,
                  chromaticities: info.has_chromaticities != 0
                      ? withUnsafeBytes(of: info.chromaticities) { Array($0.bindMemory(to: Int32.self)).map(Int.init) }
                      : nil)
    }

    /// Calls `body` with the C form, valid only inside it.
    func withCInfo<Result>(_ body: (UnsafePointer<mt_color_info>) throws -> Result) rethrows -> Result {
        try (iccProfile ?? []).withUnsafeBufferPointer { profile in
            var info = mt_color_info()
            info.icc_profile = iccProfile == nil ? nil : profile.baseAddress
            info.icc_profile_length = UInt32(profile.count)
            info.srgb_intent = Int32(srgbIntent ?? -1)
            info.gamma = Int32(gamma ?? 0)
            if let chromaticities, chromaticities.count == 8 {
                info.has_chromaticities = 1
                withUnsafeMutableBytes(of: &info.chromaticities) { raw in
                    for (index, value) in chromaticities.enumerated() {
                        raw.storeBytes(of: Int32(value), toByteOffset: index * 4, as: Int32.self)
                    }
                }
            }
            return try body(&info)
        }
    }
}
