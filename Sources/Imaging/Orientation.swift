/// How stored pixels are turned to be seen upright: the eight EXIF orientations (TIFF tag 274), which
/// are also every rotation by a multiple of 90 degrees, with or without a mirror.
public enum Orientation: Int, CaseIterable, Sendable {
    case identity = 1
    case mirrorHorizontal = 2
    case rotate180 = 3
    case mirrorVertical = 4
    case transpose = 5
    case rotate90Clockwise = 6
    case transverse = 7
    case rotate270Clockwise = 8

    /// Width and height trade places on display.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The displayed size of a stored picture.
    public func displaySize(storedWidth: Int, storedHeight: Int) -> (width: Int, height: Int) {
        swapsAxes ? (storedHeight, storedWidth) : (storedWidth, storedHeight)
    }

    /// The stored size of a displayed one: the same exchange of width and height, undone.
    public func storedSize(displayWidth: Int, displayHeight: Int) -> (width: Int, height: Int) {
        displaySize(storedWidth: displayWidth, storedHeight: displayHeight)
    }

    /// Where the displayed pixel (x, y) of a `width` x `height` stored picture is stored: each
    /// coordinate is `origin + x * perX + y * perY`, with every coefficient 0, 1 or -1.
    public func storedPixelMapping(storedWidth w: Int, storedHeight h: Int) -> StoredPixelMapping {
        switch self {
        case .identity: return StoredPixelMapping(x: (0, 1, 0), y: (0, 0, 1))
        case .mirrorHorizontal: return StoredPixelMapping(x: (w - 1, -1, 0), y: (0, 0, 1))
        case .rotate180: return StoredPixelMapping(x: (w - 1, -1, 0), y: (h - 1, 0, -1))
        case .mirrorVertical: return StoredPixelMapping(x: (0, 1, 0), y: (h - 1, 0, -1))
        case .transpose: return StoredPixelMapping(x: (0, 0, 1), y: (0, 1, 0))
        case .rotate90Clockwise: return StoredPixelMapping(x: (0, 0, 1), y: (h - 1, -1, 0))
        case .transverse: return StoredPixelMapping(x: (w - 1, 0, -1), y: (h - 1, -1, 0))
        case .rotate270Clockwise: return StoredPixelMapping(x: (w - 1, 0, -1), y: (0, 1, 0))
        }
    }
}

/// Stored coordinates as affine functions of displayed ones: `stored = origin + perX * x + perY * y`.
public struct StoredPixelMapping: Sendable, Equatable {
    public let x: (origin: Int, perX: Int, perY: Int)
    public let y: (origin: Int, perX: Int, perY: Int)

    public func stored(x displayX: Int, y displayY: Int) -> (x: Int, y: Int) {
        (x.origin + x.perX * displayX + x.perY * displayY, y.origin + y.perX * displayX + y.perY * displayY)
    }

    public static func == (a: StoredPixelMapping, b: StoredPixelMapping) -> Bool {
        a.x == b.x && a.y == b.y
    }
}
