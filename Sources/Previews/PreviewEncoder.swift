import FFmpeg
import Imaging
import WebPCodec

/// Frames in, a moving preview's file out: what every format of `PreviewFormat` gives.
protocol PreviewEncoder: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// Adds an 8-bit frame of the encoder's size, shown for `milliseconds`.
    func add(_ picture: PixelBuffer, milliseconds: Int) throws
    /// The file's bytes, every frame added.
    func finish() throws -> [UInt8]
}

extension PreviewFormat {
    /// The one place a format chooses its encoder: callers never switch on formats.
    func encoder(width: Int, height: Int, quality: Int, fps: Double, threads: Int) throws -> any PreviewEncoder {
        switch self {
        case .webp: return try WebPAnimationEncoder(width: width, height: height, quality: quality)
        case .mp4: return try H264MP4Encoder(width: width, height: height, quality: quality, fps: fps, threads: threads)
        }
    }

    /// What the encoder holds while it works, measured (maximum resident size of a preview less
    /// that of the same preview at 320 px): WebPAnimEncoder keeps three canvases and up to four
    /// candidate sub-frames, 28 to 33 bytes a pixel; x264's look-ahead and frame threads, 53 at
    /// 1080p and 72 at 4K.
    func encoderBytes(width: Int, height: Int) -> Int {
        switch self {
        case .webp: return width * height * 36
        case .mp4: return width * height * 72
        }
    }
}

extension WebPAnimationEncoder: PreviewEncoder {
    func add(_ picture: PixelBuffer, milliseconds: Int) throws {
        try picture.bytes.withUnsafeBytes { try add(pixels: $0, channels: picture.channels, milliseconds: milliseconds) }
    }
}

extension H264MP4Encoder: PreviewEncoder {
    func add(_ picture: PixelBuffer, milliseconds: Int) throws {
        try picture.bytes.withUnsafeBytes { try add(rgb: $0, channels: picture.channels, milliseconds: milliseconds) }
    }
}
