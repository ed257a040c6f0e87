import FFmpeg
import MediaFormats
import FileIO
import ImageCodecs
import Imaging
import JSON

/// How files are probed.
public struct ProbeOptions: Sendable, Codable {
    /// Decode the picture or the first frame, and count a video's frames by reading every packet.
    public var deep = false
    /// `gps` in the report; false leaves the position out (`--location remove`).
    public var includesGPS = true
    public var limits = DecodeLimits()
    /// Threads `--deep`'s decoding may use; 0 for every core.
    public var threads = 0

    public init() {}
}

/// `probe`: what a file is, from its header and index, as one report line.
public struct Prober: Sendable {
    public let options: ProbeOptions

    public init(options: ProbeOptions) {
        self.options = options
    }

    /// A picture by its first bytes (read by the reader `crop` and `thumbnail` use), else media FFmpeg opens.
    public func probe(_ file: InputFile) throws -> (result: ProbeResult, warnings: [String]) {
        if try file.head().isEmpty { throw ProbeError.empty }
        if try InputKind.pictureCodec(of: file) != nil {
            let (result, warnings) = try PictureProbe.probe(file, options: options)
            return (result, warnings)
        }
        try Self.recogniseMedia(file)
        let (result, warnings) = try MediaProbe.probe(file, options: options)
        return (result, warnings)
    }

    /// FFmpeg's demuxers are chosen by content here, never by the name: opened by path, a text file
    /// named `.png` is taken by its image2 demuxer for a picture of no size. A few KiB settle most
    /// formats; only a file they do not settle is read further, up to what a stream would be shown.
    static func recogniseMedia(_ file: InputFile) throws {
        var lengths = [4096, InputFile.recognitionLength]
        if let size = file.size { lengths = lengths.map { min($0, size) } }
        for (attempt, length) in lengths.enumerated() where attempt == 0 || length > lengths[0] {
            var start = [UInt8](repeating: 0, count: length)
            let got = try start.withUnsafeMutableBytes { try file.read(at: 0, into: $0) }
            do {
                try start.prefix(got).withUnsafeBytes { try VideoSource.recognise($0) }
                return
            } catch where attempt == 0 && lengths[1] > lengths[0] {
                continue
            }
        }
    }

    /// A picture of a format `PictureFormat` reads, or media FFmpeg opens.
    @Sendable public static func recognise(_ start: UnsafeRawBufferPointer) throws {
        try InputKind.recognise(start)
    }
}
