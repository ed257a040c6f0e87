import CPNGShim

/// The colour chunks of a PNG (iCCP, sRGB, gAMA, cHRM), carried from a picture to what is made of it.
public struct PNGColorDescription: Sendable, Equatable {
    public var iccProfile: [UInt8]?
    /// The sRGB rendering intent, 0 to 3.
    public var srgbIntent: Int?
    /// gAMA times 100000.
    public var gamma: Int?
    /// cHRM white x, y, red x, y, green x, y, blue x, y, each times 100000.
    public var chromaticities: [Int]?

    public init(iccProfile: [UInt8]? = nil, srgbIntent: Int? = nil, gamma: Int? = nil, chromaticities: [Int]? = nil) {
        self.iccProfile = iccProfile
        self.srgbIntent = srgbIntent
        self.gamma = gamma
        self.chromaticities = chromaticities
    }

    public var isEmpty: Bool { iccProfile == nil && srgbIntent == nil && gamma == nil && chromaticities == nil }

    init(_ info: mt_color_info) {
        iccProfile = info.icc_profile.map { Array(UnsafeBufferPointer(start: $0, count: Int(info.icc_profile_length))) }
        srgbIntent = info.srgb_intent >= 0 ? Int(info.srgb_intent) : nil
        gamma = info.gamma > 0 ? Int(info.gamma) : nil
        chromaticities = info.has_chromaticities != 0
            ? withUnsafeBytes(of: info.chromaticities) { Array($0.bindMemory(to: Int32.self)).map(Int.init) }
            : nil
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
