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

extension Orientation {
    /// This orientation, then `next` applied to the picture it shows: one orientation for both.
    public func followed(by next: Orientation) -> Orientation {
        // Compared on a picture too small to hide a difference and too uneven to be symmetric.
        let (width, height) = (3, 2)
        let first = storedPixelMapping(storedWidth: width, storedHeight: height)
        let shown = displaySize(storedWidth: width, storedHeight: height)
        let second = next.storedPixelMapping(storedWidth: shown.width, storedHeight: shown.height)
        let final = next.displaySize(storedWidth: shown.width, storedHeight: shown.height)
        func apply(_ mapping: StoredPixelMapping, _ x: Int, _ y: Int) -> (Int, Int) {
            (mapping.x.origin + mapping.x.perX * x + mapping.x.perY * y, mapping.y.origin + mapping.y.perX * x + mapping.y.perY * y)
        }
        return Orientation.allCases.first { candidate in
            let mapping = candidate.storedPixelMapping(storedWidth: width, storedHeight: height)
            guard candidate.displaySize(storedWidth: width, storedHeight: height) == final else { return false }
            for y in 0..<final.height {
                for x in 0..<final.width {
                    let (midX, midY) = apply(second, x, y)
                    if apply(first, midX, midY) != apply(mapping, x, y) { return false }
                }
            }
            return true
        }!
    }
}
