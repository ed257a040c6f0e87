import CWebP

/// Frames in, an animated WebP out, through libwebpmux's WebPAnimEncoder: each frame is stored as
/// the part that changed since the one before, lossy at a quality or lossless, each shown for its own
/// duration; the animation loops. The ground of `mediatool preview`'s hover loops.
public final class WebPAnimationEncoder {
    public let width: Int
    public let height: Int
    private let encoder: OpaquePointer
    private var config = WebPConfig()
    /// Where the next frame starts, in milliseconds from the first.
    private var timestamp = 0
    public private(set) var frameCount = 0

    /// An animation of `width` x `height` frames; `quality` 0 to 100 for lossy frames.
    public init(width: Int, height: Int, quality: Int = 75, lossless: Bool = false) throws(WebPError) {
        guard width > 0, height > 0, width <= 16383, height <= 16383 else { throw .tooLarge(width: width, height: height) }
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0, WebPConfigInit(&config) != 0 else { throw .encodingFailed }
        options.anim_params.loop_count = 0
        config.quality = Float(min(max(quality, 0), 100))
        config.lossless = lossless ? 1 : 0
        guard WebPValidateConfig(&config) != 0, let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
            throw .encodingFailed
        }
        self.width = width
        self.height = height
        self.encoder = encoder
    }

    deinit {
        WebPAnimEncoderDelete(encoder)
    }

    /// Adds a frame of 8-bit RGB or RGBA rows (`channels` 3 or 4), shown for `milliseconds`.
    public func add(pixels: UnsafeRawBufferPointer, channels: Int, milliseconds: Int) throws(WebPError) {
        precondition((channels == 3 || channels == 4) && pixels.count == width * height * channels && milliseconds > 0)
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .encodingFailed }
        picture.width = Int32(width)
        picture.height = Int32(height)
        picture.use_argb = 1
        defer { WebPPictureFree(&picture) }
        let rows = pixels.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let stride = Int32(width * channels)
        let imported = channels == 4 ? WebPPictureImportRGBA(&picture, rows, stride) : WebPPictureImportRGB(&picture, rows, stride)
        guard imported != 0, WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: timestamp), &config) != 0 else {
            throw .encodingFailed
        }
        timestamp += milliseconds
        frameCount += 1
    }

    /// The file's bytes: every frame added, the last shown for its duration.
    public func finish() throws(WebPError) -> [UInt8] {
        guard frameCount > 0, WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestamp), nil) != 0 else { throw .encodingFailed }
        var data = WebPData()
        WebPDataInit(&data)
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else { throw .encodingFailed }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }
}
