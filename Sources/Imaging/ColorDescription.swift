/// What a picture says of its colours (an ICC profile, an sRGB intent, a gamma and primaries, as
/// PNG's iCCP, sRGB, gAMA and cHRM chunks and the other formats' profiles say it), carried from a
/// picture to what is made of it, whatever the formats on either side.
public struct ColorDescription: Sendable, Equatable {
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
}
