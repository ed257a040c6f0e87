/// The picture formats mediatool writes.
public enum ImageFormat: String, CaseIterable, Sendable {
    case png
    case jpeg

    /// The extension outputs get by default.
    public var fileExtension: String {
        switch self {
        case .png: return "png"
        case .jpeg: return "jpg"
        }
    }

    /// The format a file name's extension names, any case; nil for one that names none of ours.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg", "jpe": self = .jpeg
        default: return nil
        }
    }

    /// "png, jpeg (jpg)": for messages.
    public static let supportedList = "png, jpeg (.jpg, .jpeg, .jpe)"
}
