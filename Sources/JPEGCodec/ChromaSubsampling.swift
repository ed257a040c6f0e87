/// How many luma samples share one chroma sample in a JPEG, across and down.
public enum ChromaSubsampling: String, CaseIterable, Sendable, Codable {
    case s420 = "420"
    case s422 = "422"
    case s440 = "440"
    case s444 = "444"

    public var stepX: Int { self == .s420 || self == .s422 ? 2 : 1 }
    public var stepY: Int { self == .s420 || self == .s440 ? 2 : 1 }

    /// The sampling of luma samples per chroma sample `stepX` by `stepY`; nil for one a JPEG
    /// writer has no name for (4:1:1 and rarer).
    public init?(stepX: Int, stepY: Int) {
        guard let match = Self.allCases.first(where: { $0.stepX == stepX && $0.stepY == stepY }) else { return nil }
        self = match
    }
}
