/// How a view shows a picture of another size, as UIImageView's content modes do.
public enum ContentMode: String, CaseIterable, Sendable, Codable {
    /// Scaled to fill the view, each axis on its own (scaleToFill).
    case stretch
    /// Scaled to fit inside the view, aspect kept, centred (scaleAspectFit).
    case fit
    /// Scaled to cover the view, aspect kept, centred (scaleAspectFill).
    case fill
}

/// Maps a rect in a view's coordinates to the coordinates of the displayed picture it shows.
public struct ViewMapping: Sendable, Codable, Equatable {
    public let viewWidth: Double
    public let viewHeight: Double
    public let mode: ContentMode

    /// Reads a view size `WxH`: two finite numbers above 0.
    public static func size(parsing text: String) -> (width: Double, height: Double)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Double($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1],
              width > 0, height > 0, width.isFinite, height.isFinite else { return nil }
        return (width, height)
    }

    public init(viewWidth: Double, viewHeight: Double, mode: ContentMode) {
        self.viewWidth = viewWidth
        self.viewHeight = viewHeight
        self.mode = mode
    }

    /// `rect` in the view, for a displayed picture of `pictureWidth` x `pictureHeight`.
    public func pictureRect(forView rect: FractionalRect, pictureWidth: Int, pictureHeight: Int) -> FractionalRect {
        let pw = Double(pictureWidth), ph = Double(pictureHeight)
        let scaleX: Double, scaleY: Double
        switch mode {
        case .stretch:
            scaleX = viewWidth / pw
            scaleY = viewHeight / ph
        case .fit:
            scaleX = min(viewWidth / pw, viewHeight / ph)
            scaleY = scaleX
        case .fill:
            scaleX = max(viewWidth / pw, viewHeight / ph)
            scaleY = scaleX
        }
        let offsetX = (viewWidth - pw * scaleX) / 2
        let offsetY = (viewHeight - ph * scaleY) / 2
        return FractionalRect(x: (rect.x - offsetX) / scaleX, y: (rect.y - offsetY) / scaleY,
                              width: rect.width / scaleX, height: rect.height / scaleY)
    }
}
