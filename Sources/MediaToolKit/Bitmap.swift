import Foundation
internal import FileIO
internal import ImageCodecs
internal import Imaging

/// Decoded pixels, upright: rows top to bottom, samples interleaved (grey, grey and alpha, RGB or
/// RGBA), 8 bits or 16 bits a sample (16-bit samples big-endian, as PNG stores them), with the
/// colour description the picture had (an ICC profile, or HDR code points kept as HDR).
///
/// The counterpart of a `CGImage`: `encoded(as:)` makes a file's bytes of it, `write(to:as:)` a file.
public struct Bitmap: Sendable, Equatable {
    let buffer: PixelBuffer
    let metadata: PictureMetadata

    /// Pixels in a row.
    public var width: Int { buffer.width }
    /// Rows.
    public var height: Int { buffer.height }
    /// Samples a pixel: 1 grey, 2 grey and alpha, 3 RGB, 4 RGBA.
    public var channels: Int { buffer.channels }
    /// 8 or 16.
    public var bitsPerSample: Int { buffer.bytesPerSample * 8 }
    /// `width * channels * bitsPerSample / 8`.
    public var bytesPerRow: Int { buffer.rowBytes }
    /// The samples, `bytesPerRow * height` bytes.
    public var pixels: [UInt8] { buffer.bytes }
    /// The ICC profile the pixels are in, when they are not sRGB.
    public var iccProfile: [UInt8]? { metadata.color?.iccProfile }

    init(_ buffer: PixelBuffer, metadata: PictureMetadata) {
        self.buffer = buffer
        self.metadata = metadata
    }

    /// Pixels from elsewhere: `pixels` must hold `width * channels * bitsPerSample / 8 * height` bytes.
    public init(width: Int, height: Int, channels: Int, bitsPerSample: Int = 8, pixels: [UInt8]) throws(MediaError) {
        let (samples, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, (1...4).contains(channels), bitsPerSample == 8 || bitsPerSample == 16, !overflow,
              samples.multipliedReportingOverflow(by: channels * bitsPerSample / 8) == (pixels.count, false) else {
            throw .invalidRequest(file: "<bitmap>", reason: "\(pixels.count) bytes are not \(width)x\(height) pixels of \(channels) channels of \(bitsPerSample) bits")
        }
        self.init(PixelBuffer(width: width, height: height, channels: channels, bytesPerSample: bitsPerSample / 8, bytes: pixels),
                  metadata: PictureMetadata())
    }

    /// The sample values of the pixel at (`x`, `y`), from the top left, each widened to 16 bits when stored in 16.
    public func pixel(x: Int, y: Int) -> [Int] {
        let offset = y * bytesPerRow + x * buffer.bytesPerPixel
        return (0..<channels).map { channel in
            let at = offset + channel * buffer.bytesPerSample
            return buffer.bytesPerSample == 1 ? Int(buffer.bytes[at]) : Int(buffer.bytes[at]) << 8 | Int(buffer.bytes[at + 1])
        }
    }

    public static func == (a: Bitmap, b: Bitmap) -> Bool {
        a.buffer == b.buffer && a.metadata.color?.iccProfile == b.metadata.color?.iccProfile && a.metadata.codePoints == b.metadata.codePoints
    }

    /// The bytes of a file of `encoding`'s format, encoded on a thread of its own; `threads` as
    /// `MediaConfiguration.threads`.
    public func encoded(as encoding: ImageEncoding = .png, threads: Int = 0) async throws(MediaError) -> Data {
        let settings = try encoding.settings(threads: threads)
        let name = "<\(encoding.format.rawValue)>"
        return try await BlockingWork.run(file: name, on: .shared) { _ in
            let fd = try TemporaryFiles.unnamed(copyOf: name)
            let file: InputFile
            do {
                _ = try ImageEncoders.encoder(for: encoding.format.format, settings: settings).write(buffer, metadata: metadata, to: fd)
                file = try InputFile(adopting: fd, displayName: name)
            } catch {
                close(fd)
                throw error
            }
            return Data(try file.contents())
        }
    }

    /// Writes a file whole, or not at all: encoded on a thread of its own to a temporary file beside
    /// `url`, renamed over it when complete. The format is `encoding`'s, or without one the name's
    /// (`.png`, `.jpg`, `.jpeg`, `.webp`, `.avif`; another extension is an error). An existing file is replaced
    /// only with `overwrite`; a name that leads out of its folder through a link, a device or a FIFO
    /// at `url` are refused.
    public func write(to url: URL, as encoding: ImageEncoding? = nil, overwrite: Bool = false, threads: Int = 0) async throws(MediaError) {
        let path = try filePath(of: url)
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        let fileExtension = name.contains(".") ? String(name.split(separator: ".", omittingEmptySubsequences: false).last!) : ""
        guard let encoding = encoding ?? ImageFormat(fileExtension: fileExtension).map({ ImageEncoding(ImageFileFormat(rawValue: $0.rawValue)!) }) else {
            throw .invalidRequest(file: path, reason: "no format given, and the name's extension (\(fileExtension.isEmpty ? "none" : "." + fileExtension)) is none written (\(ImageFormat.supportedList))")
        }
        let settings = try encoding.settings(threads: threads)
        do {
            try await BlockingWork.run(file: path, on: .shared) { _ in
                let output = try AtomicOutputFile(path: path, policy: OutputPolicy(overwrite: overwrite))
                do {
                    _ = try ImageEncoders.encoder(for: encoding.format.format, settings: settings).write(buffer, metadata: metadata, to: output.descriptor)
                    try output.commit()
                } catch {
                    output.withdraw()
                    throw error
                }
            }
        } catch {
            throw .writeFailed(file: path, reason: error.reason)
        }
    }
}
