/// The picture formats mediatool writes.
public enum ImageFormat: String, CaseIterable, Sendable {
    case png
    case jpeg
    case webp

    /// The extension outputs get by default.
    public var fileExtension: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "jpg"
        case .webp: return "webp"
        }
    }

    /// The format a file name's extension names, any case; nil for one that names none of ours.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "webp": self = .webp
        default: return nil
        }
    }

    /// The formats and their extensions, for messages.
    public static let supportedList = "png, jpeg (.jpg, .jpeg, .jpe), webp"
}
