import CPNG
import Foundation

/// A PNG file read back with libpng's own simplified reader, for checking what the tool wrote.
public struct DecodedPNG {
    public let width: Int
    public let height: Int
    /// 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA; 8-bit samples.
    public let channels: Int
    public let bytes: [UInt8]

    public init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard data.withUnsafeBytes({ png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }) != 0 else {
            throw DecodeFailure(path: path, message: withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        // 8-bit samples whatever the file holds, keeping colour and alpha as the file has them.
        image.format &= ~UInt32(PNG_FORMAT_FLAG_LINEAR | PNG_FORMAT_FLAG_COLORMAP)
        let channels = (image.format & UInt32(PNG_FORMAT_FLAG_COLOR) != 0 ? 3 : 1)
            + (image.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0 ? 1 : 0)
        var bytes = [UInt8](repeating: 0, count: Int(image.width * image.height) * channels)
        let finished = bytes.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        let message = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        png_image_free(&image)
        guard finished != 0 else { throw DecodeFailure(path: path, message: message) }
        width = Int(image.width)
        height = Int(image.height)
        self.channels = channels
        self.bytes = bytes
    }

    public func pixel(x: Int, y: Int) -> [UInt8] {
        let start = (y * width + x) * channels
        return Array(bytes[start..<(start + channels)])
    }

    public struct DecodeFailure: Error, CustomStringConvertible {
        public let path: String
        public let message: String
        public var description: String { "\(path): \(message)" }
    }
}
