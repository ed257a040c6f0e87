/// The orientation tag (0x0112) of an EXIF block's IFD0, read and written.
public enum ExifOrientation {
    /// The orientation, or nil when IFD0 has no orientation tag (see `ExifBlock.orientation`).
    public static func read(tiff bytes: [UInt8]) throws(ExifError) -> Orientation? {
        try ExifBlock(checking: bytes).orientation()
    }

    /// A minimal big-endian TIFF block holding only the orientation, for writing into PNG eXIf.
    public static func tiff(for orientation: Orientation) -> [UInt8] {
        [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,
         0x00, 0x01,
         0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, UInt8(orientation.rawValue), 0x00, 0x00,
         0x00, 0x00, 0x00, 0x00]
    }
}

extension Orientation {
    /// The orientation a picture's EXIF block states, else its XMP packet (as Pillow reads them):
    /// 1 when neither does, a warning when the EXIF block is malformed.
    public static func stated(exif: [UInt8]?, xmp: [UInt8]?, warnings: inout [String]) -> Orientation {
        if let exif {
            do {
                if let stated = try ExifOrientation.read(tiff: exif) { return stated }
            } catch {
                warnings.append("\(error); orientation 1 assumed")
                return .identity
            }
        }
        return xmp.flatMap(XMPOrientation.read(xmp:)) ?? .identity
    }
}
