import CFFmpeg
import Imaging

/// Encodes pixels as a baseline JPEG through libavcodec's MJPEG encoder (4:2:0, full range).
public enum JPEGEncoder {
    /// `quality` 1 (smallest) to 100 (best), mapped onto MJPEG's quantiser scale 31 to 1.
    public static func encode(_ pixels: PixelBuffer, quality: Int) throws -> [UInt8] {
        FFmpegLibraries.silenceLogs()
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw FFmpegError("no MJPEG encoder", code: cffmpeg_averror(ENOSYS))
        }
        var context = avcodec_alloc_context3(codec)
        guard let encoder = context else { throw FFmpegError("cannot allocate an encoder", code: cffmpeg_averror(ENOMEM)) }
        defer { avcodec_free_context(&context) }
        let scale = 1 + (100 - max(1, min(100, quality))) * 30 / 99
        encoder.pointee.width = Int32(pixels.width)
        encoder.pointee.height = Int32(pixels.height)
        encoder.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        encoder.pointee.color_range = AVCOL_RANGE_JPEG
        encoder.pointee.time_base = AVRational(num: 1, den: 25)
        encoder.pointee.flags |= AV_CODEC_FLAG_QSCALE
        encoder.pointee.global_quality = Int32(scale) * FF_QP2LAMBDA
        try FFmpegError.check(avcodec_open2(encoder, codec, nil), "cannot open the JPEG encoder")

        var allocated = av_frame_alloc()
        guard let frame = allocated else { throw FFmpegError("cannot allocate a frame", code: cffmpeg_averror(ENOMEM)) }
        defer { av_frame_free(&allocated) }
        frame.pointee.width = encoder.pointee.width
        frame.pointee.height = encoder.pointee.height
        frame.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        frame.pointee.quality = encoder.pointee.global_quality
        frame.pointee.pts = 0
        try FFmpegError.check(av_frame_get_buffer(frame, 0), "cannot allocate a frame")
        try convert(pixels, into: frame)

        try FFmpegError.check(avcodec_send_frame(encoder, frame), "cannot encode JPEG")
        _ = avcodec_send_frame(encoder, nil)
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        try FFmpegError.check(avcodec_receive_packet(encoder, packet), "cannot encode JPEG")
        return Array(UnsafeBufferPointer(start: packet!.pointee.data, count: Int(packet!.pointee.size)))
    }

    private static func convert(_ pixels: PixelBuffer, into frame: UnsafeMutablePointer<AVFrame>) throws {
        let sourceFormat = pixels.channels == 4 ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24
        guard pixels.bytesPerSample == 1, pixels.channels >= 3 else {
            throw FFmpegError("JPEG takes 8-bit RGB pixels", code: cffmpeg_averror(EINVAL))
        }
        guard let scaler = sws_getContext(Int32(pixels.width), Int32(pixels.height), sourceFormat,
                                          Int32(pixels.width), Int32(pixels.height), AV_PIX_FMT_YUVJ420P,
                                          SWS_BICUBIC | SWS_ACCURATE_RND, nil, nil, nil) else {
            throw FFmpegError("cannot convert to YUV", code: cffmpeg_averror(EINVAL))
        }
        defer { sws_freeContext(scaler) }
        try pixels.bytes.withUnsafeBytes { bytes in
            var planes: [UnsafePointer<UInt8>?] = [bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
            var strides: [Int32] = [Int32(pixels.rowBytes), 0, 0, 0]
            let scaled = withUnsafeMutablePointer(to: &frame.pointee.data) { data in
                withUnsafeMutablePointer(to: &frame.pointee.linesize) { linesize in
                    data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { destination in
                        linesize.withMemoryRebound(to: Int32.self, capacity: 8) { destinationStrides in
                            sws_scale(scaler, &planes, &strides, 0, Int32(pixels.height), destination, destinationStrides)
                        }
                    }
                }
            }
            try FFmpegError.check(scaled, "cannot convert to YUV")
        }
    }
}
