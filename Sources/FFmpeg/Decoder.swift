import CFFmpeg

/// A video decoder for one stream: owns an AVCodecContext.
final class Decoder {
    let context: UnsafeMutablePointer<AVCodecContext>

    enum Received {
        case frame
        case needsInput
        case finished
    }

    /// `threads` 0 lets FFmpeg use every core.
    /// `maxPixels`: the largest frame it may allocate; a larger one is a decoding error, whatever
    /// the container said.
    init(stream: UnsafeMutablePointer<AVStream>, threads: Int, maxPixels: Int) throws(FFmpegError) {
        let parameters = stream.pointee.codecpar!
        guard let codec = Self.decoder(for: stream) else {
            let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))
            throw FFmpegError("no decoder for \(name) video", code: cffmpeg_averror(ENOSYS))
        }
        guard let allocated = avcodec_alloc_context3(codec) else {
            throw FFmpegError("cannot allocate a decoder", code: cffmpeg_averror(ENOMEM))
        }
        context = allocated
        try FFmpegError.check(avcodec_parameters_to_context(context, parameters), "cannot set up the decoder")
        context.pointee.pkt_timebase = stream.pointee.time_base
        context.pointee.max_pixels = Int64(max(1, maxPixels))
        context.pointee.thread_count = Int32(threads)
        context.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
        // A picture cropped inside its coded size (Theora's offsets, H.264's crop rectangle) is cut
        // exactly: without this flag FFmpeg keeps the left edge on an alignment boundary, and a
        // Theora frame came out 4 columns too wide with black on the left.
        context.pointee.flags |= Int32(AV_CODEC_FLAG_UNALIGNED)
        try FFmpegError.check(avcodec_open2(context, codec, nil), "cannot open the decoder")
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&pointer)
    }

    /// VP9 with an alpha channel in WebM needs libvpx: FFmpeg's own VP9 decoder drops the alpha.
    private static func decoder(for stream: UnsafeMutablePointer<AVStream>) -> UnsafePointer<AVCodec>? {
        let codecID = stream.pointee.codecpar.pointee.codec_id
        if codecID == AV_CODEC_ID_VP9,
           let tag = av_dict_get(stream.pointee.metadata, "alpha_mode", nil, 0),
           String(cString: tag.pointee.value) == "1",
           let libvpx = avcodec_find_decoder_by_name("libvpx-vp9") {
            return libvpx
        }
        return avcodec_find_decoder(codecID)
    }

    var skipFrame: AVDiscard {
        get { context.pointee.skip_frame }
        set { context.pointee.skip_frame = newValue }
    }

    /// Packets handed to the decoder so far: the work a search did, which tests bound.
    private(set) var packetsSent = 0

    /// Sends a packet; returns FFmpeg's code (0, or negative for a packet it could not take).
    func send(_ packet: Packet) -> Int32 {
        packetsSent += 1
        return avcodec_send_packet(context, packet.pointer)
    }

    func sendEndOfStream() { _ = avcodec_send_packet(context, nil) }

    func receive(into frame: Frame) throws(FFmpegError) -> Received {
        let code = avcodec_receive_frame(context, frame.pointer)
        if code == 0 { return .frame }
        if code == FFmpegError.tryAgain { return .needsInput }
        if code == FFmpegError.endOfFile { return .finished }
        throw FFmpegError("cannot decode", code: code)
    }

    func flush() { avcodec_flush_buffers(context) }
}
