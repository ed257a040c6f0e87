import Foundation

/// Files of the repository's Fixtures folder, and scratch folders (outside the repository) for
/// what tests write, for the test targets of the modules.
public enum RepositoryFixtures {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    public static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(relative))))
    }

    /// A new empty folder of its own, removed by the caller's `defer`.
    public static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mediatool-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The rect of a packed picture's bytes.
    public static func rect(of bytes: [UInt8], pictureWidth: Int, bytesPerPixel: Int, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        var rect: [UInt8] = []
        rect.reserveCapacity(width * height * bytesPerPixel)
        for row in y..<(y + height) {
            let start = (row * pictureWidth + x) * bytesPerPixel
            rect += bytes[start..<(start + width * bytesPerPixel)]
        }
        return rect
    }
}

/// A binary Netpbm picture (P5 gray, P6 RGB, P7 PAM) as djpeg and dwebp write them, for comparing
/// with their decodings.
public struct NetpbmPicture {
    public let width: Int
    public let height: Int
    public let channels: Int
    /// 8-bit samples, packed.
    public let bytes: [UInt8]

    public struct Malformed: Error, CustomStringConvertible {
        public let why: String
        public var description: String { "not a binary Netpbm picture: \(why)" }
    }

    public init(_ data: Data) throws {
        let file = [UInt8](data)
        var at = 0
        func token() throws -> String {
            while at < file.count {
                if file[at] == UInt8(ascii: "#") {
                    while at < file.count && file[at] != 10 { at += 1 }
                } else if [9, 10, 13, 32].contains(file[at]) {
                    at += 1
                } else {
                    break
                }
            }
            let start = at
            while at < file.count && ![9, 10, 13, 32].contains(file[at]) { at += 1 }
            guard at > start else { throw Malformed(why: "header ends early") }
            return String(decoding: file[start..<at], as: UTF8.self)
        }
        let magic = try token()
        var width = 0, height = 0, channels = 0, maximum = 0
        switch magic {
        case "P5", "P6":
            guard let w = Int(try token()), let h = Int(try token()), let m = Int(try token()) else { throw Malformed(why: "header") }
            (width, height, maximum, channels) = (w, h, m, magic == "P5" ? 1 : 3)
        case "P7":
            while true {
                let key = try token()
                if key == "ENDHDR" { break }
                let value = try token()
                switch key {
                case "WIDTH": width = Int(value) ?? 0
                case "HEIGHT": height = Int(value) ?? 0
                case "DEPTH": channels = Int(value) ?? 0
                case "MAXVAL": maximum = Int(value) ?? 0
                default: break
                }
            }
        default:
            throw Malformed(why: "magic \(magic)")
        }
        guard maximum == 255 else { throw Malformed(why: "maximum \(maximum), not 255") }
        at += 1  // the one whitespace byte after the header
        let count = width * height * channels
        guard width > 0, height > 0, channels > 0, file.count - at >= count else { throw Malformed(why: "size") }
        self.width = width
        self.height = height
        self.channels = channels
        bytes = Array(file[at..<(at + count)])
    }

    public func rect(x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        RepositoryFixtures.rect(of: bytes, pictureWidth: self.width, bytesPerPixel: channels, x: x, y: y, width: width, height: height)
    }
}
