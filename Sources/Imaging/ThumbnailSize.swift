/// A size a thumbnail is made at, as the user writes it: `150` (a 150x150 box, as vips reads it),
/// `300x200`, `300x` (a width) or `x200` (a height).
public struct ThumbnailSize: Sendable, Codable, Hashable, CustomStringConvertible {
    public let width: Int?
    public let height: Int?
    /// Whether the picture may come out larger than it is.
    public let enlarges: Bool
    /// This size's own fill (an ingest recipe's renditions differ), before the job's; nil: the job's.
    public var fill: CropGravity?

    /// The picture's own display size.
    public static let original = ThumbnailSize(width: nil, height: nil)
    /// The largest width or height asked for: far past any picture, and within what the resampler's
    /// 32-bit sizes and the ladder's arithmetic hold.
    public static let largestSide = 1_000_000

    public init(width: Int?, height: Int?, enlarges: Bool = false, fill: CropGravity? = nil) {
        self.width = width
        self.height = height
        self.enlarges = enlarges
        self.fill = fill
    }

    /// nil for anything but a positive number, `WxH`, `Wx` or `xH`.
    public init?(parsing text: String, enlarges: Bool = false) {
        func number(_ part: Substring) -> Int?? {
            if part.isEmpty { return .some(nil) }
            guard part.allSatisfy(\.isASCII), let value = Int(part), value >= 1, value <= ThumbnailSize.largestSide else { return nil }
            return value
        }
        let parts = text.lowercased().split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 1 {
            guard let value = number(parts[0]) ?? nil else { return nil }
            self.init(width: value, height: value, enlarges: enlarges)
            return
        }
        guard let width = number(parts[0]), let height = number(parts[1]), width != nil || height != nil else { return nil }
        self.init(width: width, height: height, enlarges: enlarges)
    }

    /// As it appears in names (`{size}`): `150`, `300x200`, `300x`, `x200`.
    public var description: String {
        if let width, let height, width == height { return "\(width)" }
        if width == nil && height == nil { return "original" }
        return "\(width.map(String.init) ?? "")x\(height.map(String.init) ?? "")"
    }

    /// The size a `displayWidth` x `displayHeight` picture is scaled to: inside the box, aspect kept,
    /// at least one pixel a side; with `fill`, covering the box (which a crop then cuts it to).
    public func scaled(displayWidth: Int, displayHeight: Int, fill: Bool) -> (width: Int, height: Int) {
        let across = width.map { Double($0) / Double(displayWidth) }
        let down = height.map { Double($0) / Double(displayHeight) }
        var scale: Double
        switch (across, down) {
        case let (across?, down?): scale = fill ? max(across, down) : min(across, down)
        case let (across?, nil): scale = across
        case let (nil, down?): scale = down
        case (nil, nil): scale = 1
        }
        if !enlarges { scale = min(scale, 1) }
        // The side that decides the scale comes out exactly as asked.
        func side(_ length: Int, _ asked: Int?, _ ratio: Double?) -> Int {
            if let asked, let ratio, ratio == scale { return asked }
            return max(1, Int((Double(length) * scale).rounded()))
        }
        return (side(displayWidth, width, across), side(displayHeight, height, down))
    }

    /// What a filled thumbnail is cut to: the box, or as much of it as the scaled picture covers.
    public func filled(scaledWidth: Int, scaledHeight: Int) -> (width: Int, height: Int) {
        (min(width ?? scaledWidth, scaledWidth), min(height ?? scaledHeight, scaledHeight))
    }
}
