import CFFmpeg

/// Frames in, an MP4 of H.264 out: libx264 through libavcodec, muxed in memory as a fragmented MP4
/// (its `moov` first, then the samples), which a browser's `<video>` plays as it arrives and which
/// needs no second pass over the file (the mov muxer's `faststart` reopens its output by name, and
/// this output has none). 8-bit 4:2:0, BT.709, limited range: what every player decodes.
public final class H264MP4Encoder {
    /// The picture's size: even, as 4:2:0 needs (the size asked, an odd side one less).
    public var width: Int { encoder.width }
    public var height: Int { encoder.height }
    private let encoder: H264Encoder
    private let muxer: UnsafeMutablePointer<AVFormatContext>
    private let stream: UnsafeMutablePointer<AVStream>
    private let output: MemoryOutput
    /// Where the next frame starts, in milliseconds from the first.
    private var timestamp = 0
    public private(set) var frameCount = 0

    /// `quality` 0 to 100 (libx264's CRF 51 to 11), `fps` the frames a second it is mostly shown at.
    public init(width: Int, height: Int, quality: Int, fps: Double, threads: Int) throws(FFmpegError) {
        // No B-frames: each frame is stored at the time it is shown, so a fragmented MP4 (which
        // has no edit list to hide a reordering delay) starts at 0 in every player; with them
        // Chromium showed the first frame 100 ms too long and the loop 0.9 s for 0.8.
        encoder = try H264Encoder(width: width, height: height, settings: .init(
            options: [("preset", "veryfast"), ("crf", "\(H264Encoder.crf(forQuality: quality))")],
            timeBase: AVRational(num: 1, den: 1000), fps: fps, bFrames: 0, threads: threads))
        output = MemoryOutput()
        var made: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegError.check(avformat_alloc_output_context2(&made, nil, "mp4", nil), "cannot set up the MP4 muxer")
        muxer = made!
        muxer.pointee.pb = output.io
        muxer.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        guard let added = avformat_new_stream(muxer, nil) else {
            throw FFmpegError("cannot set up the MP4 muxer", code: cffmpeg_averror(ENOMEM))
        }
        stream = added
        stream.pointee.time_base = encoder.context.pointee.time_base
        try FFmpegError.check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder.context), "cannot set up the MP4 muxer")
        var flags: OpaquePointer?
        av_dict_set(&flags, "movflags", "+frag_keyframe+empty_moov+default_base_moof", 0)
        defer { av_dict_free(&flags) }
        try FFmpegError.check(avformat_write_header(muxer, &flags), "cannot write the MP4 header")
    }

    deinit {
        avformat_free_context(muxer)
    }

    /// Adds a frame of 8-bit RGB rows (`channels` 3, or 4 whose alpha is dropped) of the encoder's
    /// size, shown for `milliseconds`.
    public func add(rgb pixels: UnsafeRawBufferPointer, channels: Int, milliseconds: Int) throws {
        precondition(milliseconds > 0)
        try encoder.add(rgb: pixels, channels: channels, timestamp: Int64(timestamp), write: write)
        timestamp += milliseconds
        frameCount += 1
    }

    /// The file's bytes: every frame added, the encoder drained, the last fragment written.
    public func finish() throws -> [UInt8] {
        guard frameCount > 0 else { throw FFmpegError("no frame to encode", code: cffmpeg_averror(EINVAL)) }
        try encoder.finish(write: write)
        try FFmpegError.check(av_write_trailer(muxer), "cannot finish the MP4 file")
        return output.bytes
    }

    private func write(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        packet.pointee.stream_index = stream.pointee.index
        av_packet_rescale_ts(packet, encoder.context.pointee.time_base, stream.pointee.time_base)
        // av_interleaved_write_frame takes the packet's data and leaves it blank.
        try FFmpegError.check(av_interleaved_write_frame(muxer, packet), "cannot write the MP4 file")
    }
}
