import CFFmpeg

/// Frames in, an MP4 of H.264 out: libx264 through libavcodec, muxed in memory as a fragmented MP4
/// (its `moov` first, then the samples), which a browser's `<video>` plays as it arrives and which
/// needs no second pass over the file (the mov muxer's `faststart` reopens its output by name, and
/// this output has none). 8-bit 4:2:0, BT.709, limited range: what every player decodes.
public final class H264MP4Encoder {
    /// The picture's size: even, as 4:2:0 needs (the size asked, an odd side one less).
    public let width: Int
    public let height: Int
    private let codec: UnsafeMutablePointer<AVCodecContext>
    private let muxer: UnsafeMutablePointer<AVFormatContext>
    private let stream: UnsafeMutablePointer<AVStream>
    private let output: MemoryOutput
    private let converter: OpaquePointer
    private let frame: Frame
    private let packet: Packet
    /// Where the next frame starts, in milliseconds from the first.
    private var timestamp = 0
    public private(set) var frameCount = 0

    /// `quality` 0 to 100 (libx264's CRF 51 to 11), `fps` the frames a second it is mostly shown at.
    public init(width: Int, height: Int, quality: Int, fps: Double, threads: Int) throws(FFmpegError) {
        self.width = width & ~1
        self.height = height & ~1
        guard self.width >= 2, self.height >= 2, self.width <= 8192, self.height <= 8192 else {
            throw FFmpegError("cannot encode \(width)x\(height) H.264 (2 to 8192 a side)", code: cffmpeg_averror(EINVAL))
        }
        guard let encoder = avcodec_find_encoder_by_name("libx264") else {
            throw FFmpegError("no H.264 encoder (FFmpeg was built without libx264)", code: cffmpeg_averror(ENOSYS))
        }
        guard let context = avcodec_alloc_context3(encoder) else { throw FFmpegError("cannot allocate an encoder", code: cffmpeg_averror(ENOMEM)) }
        codec = context
        context.pointee.width = Int32(self.width)
        context.pointee.height = Int32(self.height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = AVRational(num: 1, den: 1000)
        context.pointee.framerate = AVRational(num: Int32(max(1, (fps * 1000).rounded())), den: 1000)
        context.pointee.color_primaries = AVCOL_PRI_BT709
        context.pointee.color_trc = AVCOL_TRC_BT709
        context.pointee.colorspace = AVCOL_SPC_BT709
        context.pointee.color_range = AVCOL_RANGE_MPEG
        // No B-frames: each frame is stored at the time it is shown, so a fragmented MP4 (which
        // has no edit list to hide a reordering delay) starts at 0 in every player; with them
        // Chromium showed the first frame 100 ms too long and the loop 0.9 s for 0.8.
        context.pointee.max_b_frames = 0
        context.pointee.thread_count = Int32(max(0, threads))
        // The muxer's codec configuration goes in the sample description, not in each keyframe.
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        var settings: OpaquePointer?
        av_dict_set(&settings, "preset", "veryfast", 0)
        av_dict_set(&settings, "crf", "\(Self.crf(forQuality: quality))", 0)
        defer { av_dict_free(&settings) }
        output = MemoryOutput()
        var made: UnsafeMutablePointer<AVFormatContext>?
        do {
            try FFmpegError.check(avcodec_open2(context, encoder, &settings), "cannot open the H.264 encoder")
            try FFmpegError.check(avformat_alloc_output_context2(&made, nil, "mp4", nil), "cannot set up the MP4 muxer")
        } catch {
            var pointer: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&pointer)
            throw error
        }
        muxer = made!
        muxer.pointee.pb = output.io
        muxer.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        guard let added = avformat_new_stream(muxer, nil),
              let scaler = sws_getContext(Int32(self.width), Int32(self.height), AV_PIX_FMT_RGB24, Int32(self.width), Int32(self.height),
                                          AV_PIX_FMT_YUV420P, SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP, nil, nil, nil) else {
            throw FFmpegError("cannot set up the MP4 muxer", code: cffmpeg_averror(ENOMEM))
        }
        stream = added
        converter = scaler
        // Full-range RGB to limited-range BT.709 Y'CbCr.
        let bt709 = sws_getCoefficients(SWS_CS_ITU709)
        sws_setColorspaceDetails(converter, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16)
        stream.pointee.time_base = context.pointee.time_base
        frame = Frame()
        packet = Packet()
        try FFmpegError.check(avcodec_parameters_from_context(stream.pointee.codecpar, context), "cannot set up the MP4 muxer")
        var flags: OpaquePointer?
        av_dict_set(&flags, "movflags", "+frag_keyframe+empty_moov+default_base_moof", 0)
        defer { av_dict_free(&flags) }
        try FFmpegError.check(avformat_write_header(muxer, &flags), "cannot write the MP4 header")
        frame.pointer.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointer.pointee.width = Int32(self.width)
        frame.pointer.pointee.height = Int32(self.height)
        try FFmpegError.check(av_frame_get_buffer(frame.pointer, 0), "cannot allocate a frame")
    }

    deinit {
        sws_freeContext(converter)
        avformat_free_context(muxer)
        var pointer: UnsafeMutablePointer<AVCodecContext>? = codec
        avcodec_free_context(&pointer)
    }

    /// libx264's constant rate factor for a quality of 0 to 100: 75 gives 21, near its default of 23.
    static func crf(forQuality quality: Int) -> Int {
        Int((51 - 0.4 * Double(min(max(quality, 0), 100))).rounded())
    }

    /// Adds a frame of 8-bit RGB rows (`channels` 3, or 4 whose alpha is dropped) of the encoder's
    /// size, shown for `milliseconds`.
    public func add(rgb pixels: UnsafeRawBufferPointer, channels: Int, milliseconds: Int) throws(FFmpegError) {
        precondition((channels == 3 || channels == 4) && pixels.count == width * height * channels && milliseconds > 0)
        try FFmpegError.check(av_frame_make_writable(frame.pointer), "cannot allocate a frame")
        var rows = pixels
        var packed: [UInt8] = []
        if channels == 4 {
            packed = [UInt8](unsafeUninitializedCapacity: width * height * 3) { buffer, count in
                for pixel in 0..<(width * height) {
                    buffer[pixel * 3] = pixels[pixel * 4]
                    buffer[pixel * 3 + 1] = pixels[pixel * 4 + 1]
                    buffer[pixel * 3 + 2] = pixels[pixel * 4 + 2]
                }
                count = width * height * 3
            }
        }
        let scaled = packed.withUnsafeBytes { packedRows -> Int32 in
            if channels == 4 { rows = packedRows }
            var source: [UnsafePointer<UInt8>?] = [rows.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
            var strides: [Int32] = [Int32(width * 3), 0, 0, 0]
            return frame.withPlanes { planes in
                var destination: [UnsafeMutablePointer<UInt8>?] = [planes.data.0, planes.data.1, planes.data.2, nil]
                var destinationStrides: [Int32] = [planes.linesize.0, planes.linesize.1, planes.linesize.2, 0]
                return sws_scale(converter, &source, &strides, 0, Int32(height), &destination, &destinationStrides)
            }
        }
        try FFmpegError.check(scaled, "cannot convert a frame to Y'CbCr")
        frame.pointer.pointee.pts = Int64(timestamp)
        try send(frame.pointer)
        timestamp += milliseconds
        frameCount += 1
    }

    /// The file's bytes: every frame added, the encoder drained, the last fragment written.
    public func finish() throws(FFmpegError) -> [UInt8] {
        guard frameCount > 0 else { throw FFmpegError("no frame to encode", code: cffmpeg_averror(EINVAL)) }
        try send(nil)
        try FFmpegError.check(av_write_trailer(muxer), "cannot finish the MP4 file")
        if let failure = output.failure { throw failure }
        return output.bytes
    }

    /// Sends a frame (nil: the end) and writes every packet the encoder has ready.
    private func send(_ picture: UnsafeMutablePointer<AVFrame>?) throws(FFmpegError) {
        try FFmpegError.check(avcodec_send_frame(codec, picture), "cannot encode a frame")
        while true {
            let received = avcodec_receive_packet(codec, packet.pointer)
            if received == FFmpegError.tryAgain || received == FFmpegError.endOfFile { return }
            try FFmpegError.check(received, "cannot encode a frame")
            packet.pointer.pointee.stream_index = stream.pointee.index
            av_packet_rescale_ts(packet.pointer, codec.pointee.time_base, stream.pointee.time_base)
            // av_interleaved_write_frame takes the packet's data and leaves it blank.
            try FFmpegError.check(av_interleaved_write_frame(muxer, packet.pointer), "cannot write the MP4 file")
        }
    }
}

/// An AVIOContext that appends what FFmpeg writes to bytes in memory.
final class MemoryOutput {
    private(set) var bytes: [UInt8] = []
    private(set) var io: UnsafeMutablePointer<AVIOContext>!
    private(set) var failure: FFmpegError?

    init() {
        let bufferSize: Int32 = 1 << 16
        let buffer = av_malloc(Int(bufferSize))!
        io = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), bufferSize, 1,
                                Unmanaged.passUnretained(self).toOpaque(), nil, { opaque, source, size in
            let output = Unmanaged<MemoryOutput>.fromOpaque(opaque!).takeUnretainedValue()
            output.bytes.append(contentsOf: UnsafeBufferPointer(start: source, count: Int(size)))
            return size
        }, nil)
    }

    deinit {
        av_free(io.pointee.buffer)
        var context: UnsafeMutablePointer<AVIOContext>? = io
        avio_context_free(&context)
    }
}
