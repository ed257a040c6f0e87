import CFFmpeg
import Imaging

/// A 10-bit AVIF of an HDR picture, through FFmpeg's libaom-av1 and its `avif` muxer: 4:2:0
/// YCbCr (AV1's Main profile, what every browser that shows HDR AVIF decodes), full range, its
/// `nclx` from the picture's code points (BT.2020 with HLG or PQ). libheif is not used here:
/// Debian 12's 1.15 hands aom 10-bit pictures with the profile of 12-bit ones, and aom aborts.
public enum HDRAVIFWriter {
    /// The picture: 16-bit big-endian RGB or RGBA samples of the HDR signal (0 to 65535 for 0
    /// to 1), rows packed; alpha, where there is one, is left out.
    public struct Picture {
        public let width: Int
        public let height: Int
        public let channels: Int
        public let samples: [UInt8]

        public init(width: Int, height: Int, channels: Int, samples: [UInt8]) {
            precondition(channels == 3 || channels == 4)
            precondition(samples.count == width * height * channels * 2)
            self.width = width
            self.height = height
            self.channels = channels
            self.samples = samples
        }
    }

    /// The AVIF file's bytes. `primaries` and `transfer` are H.273 code points (9 and 18 for
    /// HLG); `crf` aom's quantiser, 0 to 63; `speed` aom's, 0 to 9.
    public static func encode(_ picture: Picture, primaries: Int, transfer: Int, crf: Int, speed: Int, threads: Int) throws(FFmpegError) -> [UInt8] {
        // Loaded (and its logs silenced) here too: a picture's job has not loaded FFmpeg otherwise.
        do { try FFmpegLibraries.load() } catch { throw FFmpegError("\(error)", code: cffmpeg_averror(ENOSYS)) }
        // AV1 codes odd sizes (its chroma rounds up): the picture keeps every pixel.
        let width = picture.width, height = picture.height
        guard width >= 1, height >= 1 else {
            throw FFmpegError("cannot encode a \(width)x\(height) HDR AVIF", code: cffmpeg_averror(EINVAL))
        }
        guard let codec = avcodec_find_encoder_by_name("libaom-av1") else {
            throw FFmpegError("no AV1 encoder (FFmpeg was built without libaom)", code: cffmpeg_averror(ENOSYS))
        }
        guard let context = avcodec_alloc_context3(codec) else { throw FFmpegError("cannot allocate an encoder", code: cffmpeg_averror(ENOMEM)) }
        defer { var freed: UnsafeMutablePointer<AVCodecContext>? = context; avcodec_free_context(&freed) }
        let matrix = primaries == 9 ? AVCOL_SPC_BT2020_NCL : AVCOL_SPC_BT709
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P10LE
        context.pointee.time_base = AVRational(num: 1, den: 1)
        context.pointee.color_primaries = AVColorPrimaries(UInt32(primaries))
        context.pointee.color_trc = AVColorTransferCharacteristic(UInt32(transfer))
        context.pointee.colorspace = matrix
        context.pointee.color_range = AVCOL_RANGE_JPEG
        context.pointee.thread_count = Int32(max(1, threads))
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "still-picture", "1", 0)
        av_dict_set(&options, "cpu-used", String(min(max(speed, 0), 9)), 0)
        av_dict_set(&options, "crf", String(min(max(crf, 0), 63)), 0)
        av_dict_set(&options, "b", "0", 0)
        try FFmpegError.check(avcodec_open2(context, codec, &options), "cannot open the AV1 encoder")

        let frame = Frame()
        frame.pointer.pointee.format = AV_PIX_FMT_YUV420P10LE.rawValue
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.pointer.pointee.pts = 0
        try FFmpegError.check(av_frame_get_buffer(frame.pointer, 0), "cannot allocate a frame")
        fill(frame.pointer, from: picture, width: width, height: height, matrix: matrix)

        let output = MemoryOutput(seeks: true)
        let muxer = try avifMuxer(for: context, writingTo: output)
        defer { avformat_free_context(muxer) }
        let stream = muxer.pointee.streams[0]!
        var pictures = 0
        let packet = Packet()
        func writePackets() throws(FFmpegError) {
            while true {
                let received = avcodec_receive_packet(context, packet.pointer)
                if received == FFmpegError.tryAgain || received == FFmpegError.endOfFile { return }
                _ = try FFmpegError.check(received, "cannot encode the AV1 picture")
                pictures += 1
                packet.pointer.pointee.stream_index = stream.pointee.index
                av_packet_rescale_ts(packet.pointer, context.pointee.time_base, stream.pointee.time_base)
                // av_write_frame leaves the packet's data with the caller: unreferenced here.
                defer { av_packet_unref(packet.pointer) }
                try FFmpegError.check(av_write_frame(muxer, packet.pointer), "cannot write the AVIF picture")
            }
        }
        try FFmpegError.check(avcodec_send_frame(context, frame.pointer), "cannot encode the AV1 picture")
        try writePackets()
        try FFmpegError.check(avcodec_send_frame(context, nil), "cannot encode the AV1 picture")
        try writePackets()
        guard pictures == 1 else { throw FFmpegError("the AV1 encoder made \(pictures) pictures of one", code: cffmpeg_averror(EINVAL)) }
        try FFmpegError.check(av_write_trailer(muxer), "cannot finish the AVIF file")
        avio_flush(output.io)
        return output.bytes
    }

    /// Y′ of each pixel, Cb and Cr of each 2x2 block's mean, 10-bit full range, by `matrix`'s
    /// luma weights (BT.2020's or BT.709's).
    private static func fill(_ frame: UnsafeMutablePointer<AVFrame>, from picture: Picture, width: Int, height: Int, matrix: AVColorSpace) {
        let weights: YCbCrMatrix = matrix == AVCOL_SPC_BT2020_NCL ? .bt2020 : .bt709
        let scale = 1023.0 / 65535.0
        let planes = [frame.pointee.data.0!, frame.pointee.data.1!, frame.pointee.data.2!].map {
            UnsafeMutableRawPointer($0).assumingMemoryBound(to: UInt16.self)
        }
        let strides = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2].map { Int($0) / 2 }
        @inline(__always) func tenBit(_ value: Double) -> UInt16 { UInt16(min(max(value + 0.5, 0), 1023)) }
        picture.samples.withUnsafeBufferPointer { samples in
            @inline(__always) func rgb(_ x: Int, _ y: Int) -> (Double, Double, Double) {
                let at = (y * picture.width + x) * picture.channels * 2
                return (Double(Int(samples[at]) << 8 | Int(samples[at + 1])) * scale,
                        Double(Int(samples[at + 2]) << 8 | Int(samples[at + 3])) * scale,
                        Double(Int(samples[at + 4]) << 8 | Int(samples[at + 5])) * scale)
            }
            for y in 0..<height {
                for x in 0..<width {
                    let (r, g, b) = rgb(x, y)
                    planes[0][y * strides[0] + x] = tenBit(weights.fullRange(red: r, green: g, blue: b).luma)
                }
            }
            for y in 0..<((height + 1) / 2) {
                for x in 0..<((width + 1) / 2) {
                    // A block at an odd side's edge is the pixels it has.
                    var (r, g, b, count) = (0.0, 0.0, 0.0, 0.0)
                    for row in (2 * y)..<min(2 * y + 2, height) {
                        for column in (2 * x)..<min(2 * x + 2, width) {
                            let sample = rgb(column, row)
                            (r, g, b, count) = (r + sample.0, g + sample.1, b + sample.2, count + 1)
                        }
                    }
                    let coded = weights.fullRange(red: r / count, green: g / count, blue: b / count)
                    planes[1][y * strides[1] + x] = tenBit(coded.cb + 512)
                    planes[2][y * strides[2] + x] = tenBit(coded.cr + 512)
                }
            }
        }
    }

    /// FFmpeg's AVIF muxer for `encoder`'s one picture, its header written, writing to memory
    /// (the muxer seeks back to fill in the item locations, which a pipe would not let it).
    private static func avifMuxer(for encoder: UnsafeMutablePointer<AVCodecContext>, writingTo output: MemoryOutput) throws(FFmpegError) -> UnsafeMutablePointer<AVFormatContext> {
        var made: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegError.check(avformat_alloc_output_context2(&made, nil, "avif", nil), "cannot set up the AVIF muxer")
        guard let muxer = made else { throw FFmpegError("cannot set up the AVIF muxer", code: cffmpeg_averror(ENOMEM)) }
        do throws(FFmpegError) {
            muxer.pointee.pb = output.io
            muxer.pointee.flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_BITEXACT
            guard let stream = avformat_new_stream(muxer, nil) else { throw FFmpegError("cannot set up the AVIF muxer", code: cffmpeg_averror(ENOMEM)) }
            stream.pointee.time_base = encoder.pointee.time_base
            try FFmpegError.check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder), "cannot set up the AVIF muxer")
            try FFmpegError.check(avformat_write_header(muxer, nil), "cannot write the AVIF header")
        } catch {
            avformat_free_context(muxer)
            throw error
        }
        return muxer
    }
}
