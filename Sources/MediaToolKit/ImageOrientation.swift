internal import Imaging

/// How stored pixels are turned to be seen upright: EXIF's orientation values 1 to 8 (HEIF's
/// `irot`/`imir` and a video's display matrix are given as the same).
public enum ImageOrientation: Int, Sendable, CaseIterable, Codable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// The displayed picture's width is the stored height (orientations 5 to 8).
    public var swapsWidthAndHeight: Bool { orientation.swapsAxes }

    init(_ orientation: Orientation) {
        self = ImageOrientation(rawValue: orientation.rawValue)!
    }

    var orientation: Orientation { Orientation(rawValue: rawValue)! }
}
