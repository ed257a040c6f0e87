/// The scrubbers strip uses, for the other writers: a crop's EXIF and XMP lose the groups its
/// options remove, by the same rules, so that no subcommand carries a position `strip` would remove.
public enum MetadataScrub {
    /// An EXIF block (TIFF-headed) without `groups`; as it was when it is not one this reads.
    public static func exif(_ block: [UInt8], removing groups: Set<StripGroup>) -> [UInt8] {
        ExifScrubber.scrub(block, removing: groups)?.bytes ?? block
    }

    /// An XMP packet without `groups`, blanked where they stood.
    public static func xmp(_ packet: [UInt8], removing groups: Set<StripGroup>) -> [UInt8] {
        XMPScrubber.scrub(packet, removing: groups).bytes
    }
}
