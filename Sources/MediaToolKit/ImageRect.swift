internal import Imaging

/// A rect in pixels, from the top left; fractions allowed (a rect from a view's coordinates). A crop
/// takes every pixel the rect touches.
public struct ImageRect: Sendable, Equatable, Codable {
    /// The left edge, from the left of the picture (or view).
    public var x: Double
    /// The top edge, from the top.
    public var y: Double
    /// The width, more than 0.
    public var width: Double
    /// The height, more than 0.
    public var height: Double

    /// A rect of fractional pixels (or view points).
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// A rect of whole pixels.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
    }
}

/// The coordinates a crop's rect is given in.
public enum CropCoordinates: Sendable, Equatable {
    /// The picture as a person sees it: its orientation applied. What a user drew a box on.
    case displayed
    /// The stored pixels, orientation ignored: what `CGImage.cropping(to:)` takes.
    case stored
    /// A view of `width` by `height` points that shows the displayed picture as `contentMode` says:
    /// the rect as a touch on the phone's screen gave it.
    case view(width: Double, height: Double, contentMode: ViewContentMode)
}

/// How a view shows a picture of another size, as UIKit's `UIView.ContentMode` does.
public enum ViewContentMode: String, Sendable, CaseIterable {
    /// `scaleToFill`: each axis scaled on its own.
    case stretch
    /// `scaleAspectFit`: inside the view, aspect kept, centred.
    case fit
    /// `scaleAspectFill`: covering the view, aspect kept, centred.
    case fill
}

/// A box a thumbnail fits inside, aspect kept: a width, a height, or both. It is never enlarged
/// past the picture's own size unless `enlarges`.
public struct ThumbnailBounds: Sendable, Hashable, Codable {
    /// The widest a thumbnail may be; nil for any width.
    public var width: Int?
    /// The highest a thumbnail may be; nil for any height.
    public var height: Int?
    /// Whether a picture smaller than the box is enlarged to it.
    public var enlarges: Bool

    /// A box of at most `width` by `height` pixels.
    public init(width: Int? = nil, height: Int? = nil, enlarges: Bool = false) {
        self.width = width
        self.height = height
        self.enlarges = enlarges
    }

    /// A square box: the longer side at most `side` pixels (`kCGImageSourceThumbnailMaxPixelSize`).
    public static func maxPixelSize(_ side: Int) -> ThumbnailBounds { ThumbnailBounds(width: side, height: side) }

    /// The picture's own display size.
    public static let original = ThumbnailBounds()
}

extension ThumbnailBounds {
    /// The library's sizes as the thumbnail ladder's; none is an error.
    static func sizes(_ sizes: [ThumbnailBounds], file: String) throws(MediaError) -> [ThumbnailSize] {
        guard !sizes.isEmpty else { throw .invalidRequest(file: file, reason: "no sizes were asked for") }
        return try sizes.map { bounds throws(MediaError) in
            for (side, value) in [("width", bounds.width), ("height", bounds.height)] {
                if let value, !(1...ThumbnailSize.largestSide).contains(value) {
                    throw .invalidRequest(file: file, reason: "a \(side) of \(value) pixels: sizes are from 1 to \(ThumbnailSize.largestSide)")
                }
            }
            return ThumbnailSize(width: bounds.width, height: bounds.height, enlarges: bounds.enlarges)
        }
    }
}
