import CLCMS2
import Imaging
import Reporting
import Failures

/// The lcms2 the tool runs with.
public enum LCMS2Library {
    public static var version: LibraryVersion {
        let encoded = Int(cmsGetEncodedCMMversion())
        return LibraryVersion(name: "lcms2", version: "\(encoded / 1000).\(encoded % 1000 / 10).\(encoded % 10)")
    }
}

/// Why a picture's colours could not be converted.
public enum ColourConversionError: Error, Equatable, CustomStringConvertible {
    /// lcms2 could not read the profile, or make a transform from it.
    case unusableProfile

    public var description: String {
        switch self {
        case .unusableProfile: return "its ICC profile cannot be used for a colour conversion (lcms2 refused it)"
        }
    }
}

/// Pixels described by an embedded ICC profile, converted to sRGB by lcms2 (Little CMS), the
/// colour-management library of GIMP, Krita and libvips: what `--colorspace srgb` does, so that a
/// Display P3 or Adobe RGB photo looks right in a browser that ignores profiles. One transform,
/// made once, serves every size of a picture.
public final class SRGBConversion {
    private let transform: cmsHTRANSFORM
    private let channels: Int
    private let bytesPerSample: Int

    /// Whether a profile describes RGB pixels (the only ones converted; gray and CMYK stay as they are).
    public static func describesRGB(_ profile: [UInt8]) -> Bool {
        guard let opened = open(profile) else { return false }
        defer { cmsCloseProfile(opened) }
        return cmsGetColorSpace(opened) == cmsSigRgbData
    }

    /// From `profile` to sRGB for pixels of `channels` (RGB or RGBA) of `bytesPerSample`: perceptual
    /// intent (relative colorimetric where the profile has no perceptual table), alpha untouched.
    public init(from profile: [UInt8], channels: Int, bytesPerSample: Int) throws(ColourConversionError) {
        precondition(channels == 3 || channels == 4)
        guard let source = Self.open(profile) else { throw .unusableProfile }
        defer { cmsCloseProfile(source) }
        guard cmsGetColorSpace(source) == cmsSigRgbData, let srgb = cmsCreate_sRGBProfile() else { throw .unusableProfile }
        defer { cmsCloseProfile(srgb) }
        let format = Self.format(channels: channels, bytesPerSample: bytesPerSample)
        let intent = cmsIsIntentSupported(source, UInt32(INTENT_PERCEPTUAL), UInt32(LCMS_USED_AS_INPUT)) != 0
            ? UInt32(INTENT_PERCEPTUAL) : UInt32(INTENT_RELATIVE_COLORIMETRIC)
        let flags = UInt32(cmsFLAGS_COPY_ALPHA) | UInt32(cmsFLAGS_BLACKPOINTCOMPENSATION)
        guard let transform = cmsCreateTransform(source, format, srgb, format, intent, flags) else { throw .unusableProfile }
        self.transform = transform
        self.channels = channels
        self.bytesPerSample = bytesPerSample
    }

    deinit {
        cmsDeleteTransform(transform)
    }

    /// `pixels`, of the layout the conversion was made for, in sRGB.
    public func convert(_ pixels: PixelBuffer) -> PixelBuffer {
        precondition(pixels.channels == channels && pixels.bytesPerSample == bytesPerSample)
        var converted = pixels
        pixels.bytes.withUnsafeBytes { input in
            converted.bytes.withUnsafeMutableBytes { output in
                cmsDoTransformLineStride(transform, input.baseAddress, output.baseAddress, UInt32(pixels.width), UInt32(pixels.height),
                                         UInt32(pixels.rowBytes), UInt32(pixels.rowBytes), 0, 0)
            }
        }
        return converted
    }

    private static let silenced: Void = cmsSetLogErrorHandler(nil)

    static func open(_ profile: [UInt8]) -> cmsHPROFILE? {
        Self.silenced
        return profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }
    }

    /// lcms2's pixel format word (lcms2.h's TYPE_RGB_8 and kin, which Swift does not import):
    /// channels, bytes a sample, extra (alpha) channels, and 16-bit samples big-endian as PNG keeps them.
    private static func format(channels: Int, bytesPerSample: Int) -> UInt32 {
        let colourSpace: UInt32 = 4  // PT_RGB
        var word = colourSpace << 16 | 3 << 3 | UInt32(bytesPerSample == 2 ? 2 : 1)
        if channels == 4 { word |= 1 << 7 }  // EXTRA_SH(1)
        if bytesPerSample == 2 { word |= 1 << 11 }  // ENDIAN16_SH(1)
        return word
    }
}

extension ColourConversionError: ClassifiedError {
    public var failureKind: FailureKind { .damaged }
}
