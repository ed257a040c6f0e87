/// A half-open rectangle of whole pixels: columns x ..< x + width, rows y ..< y + height.
public struct PixelRect: Sendable, Equatable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var description: String { "\(x),\(y),\(width),\(height)" }

    /// True when the rect lies inside a `width` x `height` picture.
    public func fits(width pictureWidth: Int, height pictureHeight: Int) -> Bool {
        x >= 0 && y >= 0 && width > 0 && height > 0 && x + width <= pictureWidth && y + height <= pictureHeight
    }

    /// The part inside a `width` x `height` picture, or nil when there is none.
    public func clamped(width pictureWidth: Int, height pictureHeight: Int) -> PixelRect? {
        let left = max(0, x), top = max(0, y)
        let right = min(pictureWidth, x + width), bottom = min(pictureHeight, y + height)
        guard right > left, bottom > top else { return nil }
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}

/// A rectangle in continuous coordinates, as a person gives it: fractions allowed.
public struct FractionalRect: Sendable, Codable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The largest coordinate a rect may have: far beyond any picture, and far from Int's limits.
    public static let coordinateLimit = 1e12

    /// Reads `X,Y,W,H`: four finite numbers, W and H above 0, none beyond `coordinateLimit`.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
        guard parts.count == 4 else { return nil }
        let values = parts.compactMap { $0 }
        guard values.count == 4, values.allSatisfy({ $0.isFinite && abs($0) <= Self.coordinateLimit }),
              values[2] > 0, values[3] > 0 else { return nil }
        self.init(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    /// The smallest whole-pixel rect that covers this one (like CGRectIntegral): the origin rounded
    /// down and the far edges up, each edge on its own, so that no rounding of x and width apart can
    /// lose a pixel. Edges are first held within `coordinateLimit` (a view mapping can send them
    /// anywhere, infinity included), so the conversion to whole numbers cannot trap.
    public func snappedOutward() -> PixelRect {
        // A hair of tolerance: 100.00000000001 from a view mapping is pixel 100, not 101.
        let epsilon = 1e-9
        let limit = Self.coordinateLimit
        func held(_ value: Double) -> Double { value.isNaN ? 0 : min(limit, max(-limit, value)) }
        let left = held((x + epsilon).rounded(.down)), top = held((y + epsilon).rounded(.down))
        var right = held((x + width - epsilon).rounded(.up)), bottom = held((y + height - epsilon).rounded(.up))
        // A rect thinner than the tolerance still covers the pixel it starts in (found by fuzzing: 0,0,1e-9,1).
        if right <= left { right = left + 1 }
        if bottom <= top { bottom = top + 1 }
        return PixelRect(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))
    }
}

extension PixelBuffer {
    /// The pixels inside `rect`, which must fit.
    public func cropped(to rect: PixelRect) -> PixelBuffer {
        precondition(rect.fits(width: width, height: height))
        let pixelBytes = bytesPerPixel
        return PixelBuffer(width: rect.width, height: rect.height, channels: channels, bytesPerSample: bytesPerSample) { destination in
            bytes.withUnsafeBytes { source in
                for row in 0..<rect.height {
                    let from = ((rect.y + row) * width + rect.x) * pixelBytes
                    destination.baseAddress!.advanced(by: row * rect.width * pixelBytes)
                        .copyMemory(from: source.baseAddress! + from, byteCount: rect.width * pixelBytes)
                }
            }
        }
    }
}
