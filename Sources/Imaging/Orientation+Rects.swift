extension Orientation {
    /// The stored pixels that a displayed rect shows. `storedWidth` x `storedHeight` is the picture
    /// as stored; `rect` is in displayed coordinates (the orientation applied). Exact on whole pixels:
    /// cropping the stored rect and turning it gives the displayed rect of the turned picture.
    public func storedRect(forDisplayed rect: PixelRect, storedWidth w: Int, storedHeight h: Int) -> PixelRect {
        let (x, y, width, height) = (rect.x, rect.y, rect.width, rect.height)
        switch self {
        case .identity: return PixelRect(x: x, y: y, width: width, height: height)
        case .mirrorHorizontal: return PixelRect(x: w - x - width, y: y, width: width, height: height)
        case .rotate180: return PixelRect(x: w - x - width, y: h - y - height, width: width, height: height)
        case .mirrorVertical: return PixelRect(x: x, y: h - y - height, width: width, height: height)
        case .transpose: return PixelRect(x: y, y: x, width: height, height: width)
        case .rotate90Clockwise: return PixelRect(x: y, y: h - x - width, width: height, height: width)
        case .transverse: return PixelRect(x: w - y - height, y: h - x - width, width: height, height: width)
        case .rotate270Clockwise: return PixelRect(x: w - y - height, y: x, width: height, height: width)
        }
    }

    /// The orientation that undoes this one: the turns by 90 degrees trade places, the rest undo themselves.
    public var inverse: Orientation {
        switch self {
        case .rotate90Clockwise: return .rotate270Clockwise
        case .rotate270Clockwise: return .rotate90Clockwise
        default: return self
        }
    }

    /// The displayed rect that shows the stored rect `rect`: `storedRect(forDisplayed:)` undone.
    public func displayedRect(forStored rect: PixelRect, storedWidth w: Int, storedHeight h: Int) -> PixelRect {
        let displayed = displaySize(storedWidth: w, storedHeight: h)
        return inverse.storedRect(forDisplayed: rect, storedWidth: displayed.width, storedHeight: displayed.height)
    }
}
