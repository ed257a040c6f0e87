/// The kinds of metadata `strip` removes, named by `--keep` and `--remove`. Each names what a
/// stranger could learn of the uploader from it; orientation, dates, the colour profile and every
/// pixel and sample are in none of them.
public enum StripGroup: String, CaseIterable, Codable, Sendable, Comparable {
    /// Where: EXIF's GPS directory, XMP's GPS, city, state, country and IPTC locations, IPTC's
    /// location datasets, QuickTime's ISO 6709 position (`©xyz`, the `mdta` key, 3GPP `loci`).
    case location
    /// Which camera: body, lens and camera serial numbers (EXIF, XMP `aux:`/`exifEX:`).
    case serial
    /// Whose camera: the owner's name the camera was set up with (EXIF `OwnerName`, XMP `aux:OwnerName`).
    case owner
    /// Maker notes, whose formats hide serial numbers (Canon, Nikon, Sony...): removed whole,
    /// except Apple's, which hold none and carry a Live Photo's content identifier.
    case makernotes
    /// Who made it: EXIF `Artist`, XMP `dc:creator` and the creator's contact details, IPTC
    /// by-lines. Kept unless asked: it is often the credit a photographer wants shown.
    case author
    /// EXIF's embedded thumbnail, which shows the picture as shot (before a crop or an edit).
    /// Kept unless asked.
    case thumbnail

    /// What `strip` removes when not told otherwise.
    public static let removedByDefault: Set<StripGroup> = [.location, .serial, .owner, .makernotes]

    public static func < (lhs: StripGroup, rhs: StripGroup) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
