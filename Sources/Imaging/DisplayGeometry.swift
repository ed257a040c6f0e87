
/// Sizes of a thumbnail: the coded picture, corrected for its pixel aspect, turned upright and fitted.
public struct DisplayGeometry: Equatable, Sendable {
    /// The size to scale the coded picture to, before it is turned.
    public let scaledWidth: Int
    public let scaledHeight: Int
    /// The size of the image written, after it is turned.
    public var outputWidth: Int { orientation.swapsAxes ? scaledHeight : scaledWidth }
    public var outputHeight: Int { orientation.swapsAxes ? scaledWidth : scaledHeight }
    public let orientation: Orientation

    /// Square pixels by widening (or narrowing) the picture, as players do: 720x576 at 64:45 shows as
    /// 1024x576. Then fitted inside `maxWidth` x `maxHeight`, given in upright coordinates.
    public init(codedWidth: Int, codedHeight: Int, pixelAspect: (numerator: Int, denominator: Int),
                orientation: Orientation, maxWidth: Int?, maxHeight: Int?) {
        self.orientation = orientation
        var width = Double(codedWidth) * Double(pixelAspect.numerator) / Double(pixelAspect.denominator)
        var height = Double(codedHeight)
        let (uprightWidth, uprightHeight) = orientation.swapsAxes ? (height, width) : (width, height)
        var scale: Double?
        if let maxWidth { scale = Double(maxWidth) / uprightWidth }
        if let maxHeight { scale = min(scale ?? .infinity, Double(maxHeight) / uprightHeight) }
        if let scale {
            width *= scale
            height *= scale
        }
        scaledWidth = max(1, Int(width.rounded()))
        scaledHeight = max(1, Int(height.rounded()))
    }

    private init(orientation: Orientation, scaledWidth: Int, scaledHeight: Int) {
        self.orientation = orientation
        self.scaledWidth = scaledWidth
        self.scaledHeight = scaledHeight
    }

    /// The same picture with its shorter side as shown `side` pixels and the other in
    /// proportion, each rounded to the nearest even number, 2 at least (an HLS ladder's rungs:
    /// 854x480 of 1920x1080, where rounding then making even gave 852).
    public func withEvenShorterSide(_ side: Int) -> DisplayGeometry {
        let (width, height) = (Double(scaledWidth), Double(scaledHeight))
        let scale = Double(side) / min(width, height)
        func even(_ length: Double) -> Int { max(2, Int((length / 2).rounded()) * 2) }
        return DisplayGeometry(orientation: orientation, scaledWidth: even(width * scale), scaledHeight: even(height * scale))
    }

    /// The same with each side even (one less where odd, 2 at least): what 4:2:0 video needs.
    public var evenSided: DisplayGeometry {
        DisplayGeometry(orientation: orientation, scaledWidth: max(2, scaledWidth & ~1), scaledHeight: max(2, scaledHeight & ~1))
    }
}
