/// The files a moving preview is written as.
public enum PreviewFormat: String, Sendable, Codable, CaseIterable {
    /// An animated WebP: every browser plays it in an `<img>`.
    case webp
    /// H.264 in a fragmented MP4, for a `<video muted autoplay loop>`: smaller, and what players
    /// that take video rather than pictures want.
    case mp4

    public var fileExtension: String { rawValue }

    /// The format a name's extension says, any case; nil for one no preview is written as.
    public init?(fileExtension: String) {
        self.init(rawValue: fileExtension.lowercased())
    }

    /// "webp", "mp4 and gif", for messages.
    public static var supportedList: String {
        let names = allCases.map(\.rawValue)
        return names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}
