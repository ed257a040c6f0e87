import Batch
import JSON

/// Each job's result as a value: what its JSON line says beside the batch's own fields, encoded
/// by one encoder (`JSONValueEncoder`) in the order the types declare, a `nil` written `null`
/// (a line has every field). Probe's line is `ProbeResult` (MediaProbe), storyboard's
/// `StoryboardReport` (Storyboards), ingest's manifest the Ingest module's.
extension JobReport {
    /// `result`'s members as the report's fields.
    init(_ result: some Encodable, warnings: [String]) throws {
        guard case .object(let members) = try JSONValueEncoder.encode(result) else {
            preconditionFailure("a job's result encodes as an object")
        }
        self.init(fields: members.map { (name: $0.name, value: $0.value) }, warnings: warnings)
    }
}

/// A thumbnail's line: the source's kind, a video's time, the picture's size as shown, and each
/// size written.
struct ThumbnailResult: Encodable {
    struct Output: Encodable {
        let path: JSONPath
        let size: String
        let width: Int
        let height: Int
    }

    let kind: String
    /// A video's frame's time; nil for a picture, written `null`.
    @Nullable var seconds: Double?
    let width: Int
    let height: Int
    let orientation: Int
    let outputs: [Output]
}

/// A crop's line: the orientation it turned upright, and the rect it took of the stored pixels.
struct CropResult: Encodable {
    let orientation: Int
    /// x, y, width, height.
    let storedRect: [Int]

    private enum CodingKeys: String, CodingKey { case orientation, storedRect = "stored_rect" }
}

/// A preview's line.
struct PreviewResult: Encodable {
    struct Segment: Encodable {
        let start: Double
        let seconds: Double
    }

    let format: String
    let width: Int
    let height: Int
    let frames: Int
    let milliseconds: Int
    let segments: [Segment]
    let quality: Int
    let bytes: Int
}

/// What a picture's header says (`PixelJob.pictureHeader`): the library's `ImageSource` opens
/// a picture by it, a worker's answer checked before it is believed.
public struct PictureHeaderResult: Codable, Sendable {
    public let format: String
    public let storedWidth: Int
    public let storedHeight: Int
    /// EXIF's 1 to 8.
    public let orientation: Int

    private enum CodingKeys: String, CodingKey { case format, storedWidth = "stored_width", storedHeight = "stored_height", orientation }
}
