import CFFmpeg

/// libx264 through libavcodec, fed 8-bit RGB (made limited-range BT.709 Y'CbCr 4:2:0 by
/// `RGBToYCbCr420`) or pictures already in its planes: the one place an H.264 encoder is set
/// up, for the preview's MP4 and the web video. The caller's muxer takes each packet it makes.
final class H264Encoder {
    /// The picture's size: even, as 4:2:0 needs (the size asked, an odd side one less).
    let width: Int
    let height: Int
    let context: UnsafeMutablePointer<AVCodecContext>
    private let frame: Frame
    private let packet: Packet

    /// What libx264 is told: its `preset` and `crf` (and any other of its AVOptions), the time base
    /// of the timestamps given, the frame rate it mostly runs at, B-frames (nil: the preset's),
    /// and its threads (0: every core). `keyframesOnRequest`: an IDR frame where the caller asks
    /// for one and nowhere else (no scene cuts, no interval), so that renditions of one video made
    /// side by side have their keyframes at the same frames (an HLS ladder's segments).
    struct Settings {
        var options: [(String, String)]
        var timeBase: AVRational
        var fps: Double
        var bFrames: Int?
        var threads: Int
        var keyframesOnRequest = false
    }

    init(width: Int, height: Int, settings: Settings) throws(FFmpegError) {
        self.width = width & ~1
        self.height = height & ~1
        guard self.width >= 2, self.height >= 2, self.width <= 8192, self.height <= 8192 else {
            throw FFmpegError("cannot encode \(width)x\(height) H.264 (2 to 8192 a side)", code: cffmpeg_averror(EINVAL))
        }
        guard let encoder = avcodec_find_encoder_by_name("libx264") else {
            throw FFmpegError("no H.264 encoder (FFmpeg was built without libx264)", code: cffmpeg_averror(ENOSYS))
        }
        guard let made = avcodec_alloc_context3(encoder) else { throw FFmpegError("cannot allocate an encoder", code: cffmpeg_averror(ENOMEM)) }
        context = made
        context.pointee.width = Int32(self.width)
        context.pointee.height = Int32(self.height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = settings.timeBase
        context.pointee.framerate = AVRational(num: Int32(max(1, (settings.fps * 1000).rounded())), den: 1000)
        context.pointee.color_primaries = AVCOL_PRI_BT709
        context.pointee.color_trc = AVCOL_TRC_BT709
        context.pointee.colorspace = AVCOL_SPC_BT709
        context.pointee.color_range = AVCOL_RANGE_MPEG
        if let bFrames = settings.bFrames { context.pointee.max_b_frames = Int32(bFrames) }
        context.pointee.thread_count = Int32(max(0, settings.threads))
        // The muxer's codec configuration goes in the sample description, not in each keyframe.
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        var options: OpaquePointer?
        for (key, value) in settings.options { av_dict_set(&options, key, value, 0) }
        if settings.keyframesOnRequest {
            av_dict_set(&options, "x264-params", "keyint=infinite:scenecut=0", 0)
            av_dict_set(&options, "forced-idr", "1", 0)
        }
        defer { av_dict_free(&options) }
        frame = Frame()
        packet = Packet()
        try FFmpegError.check(avcodec_open2(context, encoder, &options), "cannot open the H.264 encoder")
        frame.pointer.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointer.pointee.width = Int32(self.width)
        frame.pointer.pointee.height = Int32(self.height)
        try FFmpegError.check(av_frame_get_buffer(frame.pointer, 0), "cannot allocate a frame")
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&pointer)
    }

    /// What libx264 holds for `width` x `height` pictures at `preset`, measured (release, two
    /// cores, its threads and lookahead as set here): at 4096x1080, 100 bytes a pixel at
    /// veryfast, 200 at medium, 240 at slow; slower presets look further ahead with more
    /// references. A little over each, and a fixed part for its tables.
    static func memoryNeeded(width: Int, height: Int, preset: String) -> Int {
        let perPixel: Int
        switch preset {
        case "ultrafast", "superfast", "veryfast": perPixel = 110
        case "faster", "fast": perPixel = 170
        case "medium": perPixel = 220
        case "slow", "slower": perPixel = 280
        default: perPixel = 420
        }
        return width * height * perPixel + 16 << 20
    }

    /// libx264's constant rate factor for a quality of 0 to 100: 75 gives 21, near its default of 23.
    static func crf(forQuality quality: Int) -> Int {
        Int((51 - 0.4 * Double(min(max(quality, 0), 100))).rounded())
    }

    /// Encodes a frame of 8-bit RGB rows (`channels` 3, or 4 whose alpha is dropped) of the
    /// encoder's size, shown from `timestamp` (in the time base), an IDR frame where `keyframe`
    /// asks; each packet made goes to `write`.
    func add(rgb pixels: UnsafeRawBufferPointer, channels: Int, timestamp: Int64, keyframe: Bool = false,
             write: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        precondition((channels == 3 || channels == 4) && pixels.count == width * height * channels)
        try FFmpegError.check(av_frame_make_writable(frame.pointer), "cannot allocate a frame")
        frame.withPlanes { planes in
            RGBToYCbCr420.convert(pixels, channels: channels, width: width, height: height,
                                  luma: planes.data.0!, lumaStride: Int(planes.linesize.0),
                                  cb: planes.data.1!, cr: planes.data.2!, chromaStride: Int(planes.linesize.1))
        }
        try send(frame.pointer, at: timestamp, keyframe: keyframe, write: write)
    }

    /// Encodes a picture already in the encoder's format and size (`YCbCr420Scaler`'s), as
    /// `add(rgb:)` does.
    func add(_ picture: YCbCr420Picture, timestamp: Int64, keyframe: Bool = false,
             write: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        precondition(picture.width == width && picture.height == height)
        try FFmpegError.check(av_frame_make_writable(frame.pointer), "cannot allocate a frame")
        frame.withPlanes { planes in
            for (plane, destination, stride) in [(picture.luma, planes.data.0, planes.linesize.0), (picture.cb, planes.data.1, planes.linesize.1),
                                                 (picture.cr, planes.data.2, planes.linesize.2)] {
                guard let destination else { continue }
                plane.bytes.withUnsafeBytes { rows in
                    for row in 0..<plane.height {
                        (destination + row * Int(stride)).update(from: rows.baseAddress!.assumingMemoryBound(to: UInt8.self) + row * plane.width,
                                                                  count: plane.width)
                    }
                }
            }
        }
        try send(frame.pointer, at: timestamp, keyframe: keyframe, write: write)
    }

    private func send(_ picture: UnsafeMutablePointer<AVFrame>, at timestamp: Int64, keyframe: Bool,
                      write: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        picture.pointee.pts = timestamp
        picture.pointee.pict_type = keyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        try send(picture, write: write)
    }

    /// Drains the encoder: every packet it still holds goes to `write`.
    func finish(write: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        try send(nil, write: write)
    }

    /// Sends a frame (nil: the end) and hands out every packet the encoder has ready.
    private func send(_ picture: UnsafeMutablePointer<AVFrame>?, write: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        try FFmpegError.check(avcodec_send_frame(context, picture), "cannot encode a frame")
        while true {
            let received = avcodec_receive_packet(context, packet.pointer)
            if received == FFmpegError.tryAgain || received == FFmpegError.endOfFile { return }
            try FFmpegError.check(received, "cannot encode a frame")
            try write(packet.pointer)
        }
    }
}
