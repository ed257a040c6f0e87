import CFFmpeg
import FileIO
import Glibc

/// Writes the MP4 every browser plays to an open descriptor: H.264 (High, 8-bit 4:2:0, BT.709,
/// limited range, tagged so) from upright RGB frames, and AAC-LC from float samples. To a file
/// it writes a plain MP4 (whose `moov` the caller moves first, `MP4Faststart`); to a pipe, which
/// cannot be sought back in, a fragmented one whose `moov` comes first as it is. No metadata is
/// copied from the source: a creation time only, where given; never a location.
/// Segmented (an HLS rendition), it writes a fragmented MP4 whatever the descriptor, a fragment
/// from each keyframe the caller asks for to the next, and says where each one lies.
public final class WebMP4Writer {
    public struct Video: Sendable {
        public var width: Int
        public var height: Int
        /// libx264's preset and constant rate factor.
        public var preset: String
        public var crf: Double
        /// The frame rate the video mostly runs at (rate control's hint; each frame keeps its own time).
        public var fps: Double
        public var threads: Int
        /// Keyframes where `addVideo`'s `keyframe` asks and only there, each starting a fragment
        /// of its own: an HLS rendition's segments.
        public var segmented: Bool

        public init(width: Int, height: Int, preset: String, crf: Double, fps: Double, threads: Int, segmented: Bool = false) {
            self.width = width
            self.height = height
            self.preset = preset
            self.crf = crf
            self.fps = fps
            self.threads = threads
            self.segmented = segmented
        }
    }

    /// A segmented file's parts: its initialisation (`ftyp` and `moov`), then each fragment
    /// from a keyframe asked for, with the time its first frame is shown.
    public struct Segment: Equatable, Sendable {
        public let offset: Int
        public let bytes: Int
        public let seconds: Double
    }

    /// The sound's rate and channels (1 or 2), as `AudioSource` hands them.
    public struct Audio: Sendable {
        public var sampleRate: Int
        public var channels: Int
        public init(sampleRate: Int, channels: Int) {
            self.sampleRate = sampleRate
            self.channels = channels
        }
    }

    /// The rates AAC codes: any other is resampled to 48 kHz.
    public static let aacSampleRates: Set<Int> = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000]
    /// Video timestamps count in 90 kHz ticks, MPEG's clock: fine enough for any frame rate's own times.
    static let videoClock: Int32 = 90000

    public var width: Int { video.width }
    public var height: Int { video.height }
    public let isFragmented: Bool
    public let isSegmented: Bool
    /// Where a segmented file's fragments start, and the bytes before the first (its initialisation).
    public private(set) var initialisationBytes = 0
    private var fragmentStarts: [(offset: Int, seconds: Double)] = []
    /// Past the last fragment, once the file is finished.
    private var fragmentsEnd: Int?
    /// The time of the last video packet written: a segmented file's sound is encoded no further,
    /// so that each fragment's sound ends with its pictures.
    private var writtenVideoSeconds = 0.0
    /// A segmented file's last video packet, muxed once the next one gives its length.
    private let heldVideo = Packet()
    private var heldVideoIsPending = false
    private let video: H264Encoder
    private let audioEncoder: UnsafeMutablePointer<AVCodecContext>?
    private let muxer: UnsafeMutablePointer<AVFormatContext>
    private let videoStream: UnsafeMutablePointer<AVStream>
    private let audioStream: UnsafeMutablePointer<AVStream>?
    private let output: DescriptorOutput
    private let audioFrame = Frame()
    /// Samples waiting to be encoded, one array a channel, from `pendingStart` on (those before
    /// were encoded: dropped in bulk, not a frame at a time, which copied the rest each time),
    /// after `silenceAhead` samples of silence.
    private var pendingSamples: [[Float]]
    private var pendingStart = 0
    private var silenceAhead = 0
    private var pendingCount: Int { silenceAhead + (pendingSamples.first?.count ?? 0) - pendingStart }
    private var samplesSent: Int64 = 0
    private var lastVideoTimestamp: Int64 = -1
    public private(set) var frameCount = 0
    /// A frame's nominal length in video ticks: the last frame's, which no next frame ends (a
    /// video of one frame would last 0 s and show nothing).
    private let frameTicks: Int64

    public init(descriptor: Int32, target: String, video settings: Video, audio: Audio?, creationTime: String?) throws {
        // A segmented file is written straight through: its byte ranges are final as they go.
        output = DescriptorOutput(descriptor: descriptor, target: target, seeks: !settings.segmented)
        isSegmented = settings.segmented
        isFragmented = !output.isSeekable
        frameTicks = max(1, Int64((Double(Self.videoClock) / max(settings.fps, 1)).rounded()))
        video = try H264Encoder(width: settings.width, height: settings.height, settings: .init(
            options: [("preset", settings.preset), ("crf", String(settings.crf)), ("profile", "high")],
            timeBase: AVRational(num: 1, den: Self.videoClock), fps: settings.fps, bFrames: isFragmented ? 0 : nil,
            threads: settings.threads, keyframesOnRequest: settings.segmented))
        var made: UnsafeMutablePointer<AVFormatContext>?
        try FFmpegError.check(avformat_alloc_output_context2(&made, nil, "mp4", nil), "cannot set up the MP4 muxer")
        muxer = made!
        muxer.pointee.pb = output.io
        muxer.pointee.flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_BITEXACT
        guard let addedVideo = avformat_new_stream(muxer, nil) else {
            avformat_free_context(muxer)
            throw FFmpegError("cannot set up the MP4 muxer", code: cffmpeg_averror(ENOMEM))
        }
        videoStream = addedVideo
        videoStream.pointee.time_base = video.context.pointee.time_base
        try FFmpegError.check(avcodec_parameters_from_context(videoStream.pointee.codecpar, video.context), "cannot set up the MP4 muxer")
        if let audio {
            let encoder = try Self.aacEncoder(audio)
            audioEncoder = encoder
            guard let addedAudio = avformat_new_stream(muxer, nil) else {
                throw FFmpegError("cannot set up the MP4 muxer", code: cffmpeg_averror(ENOMEM))
            }
            audioStream = addedAudio
            addedAudio.pointee.time_base = encoder.pointee.time_base
            try FFmpegError.check(avcodec_parameters_from_context(addedAudio.pointee.codecpar, encoder), "cannot set up the MP4 muxer")
            audioFrame.pointer.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
            audioFrame.pointer.pointee.sample_rate = encoder.pointee.sample_rate
            audioFrame.pointer.pointee.nb_samples = encoder.pointee.frame_size
            av_channel_layout_default(&audioFrame.pointer.pointee.ch_layout, Int32(audio.channels))
            try FFmpegError.check(av_frame_get_buffer(audioFrame.pointer, 0), "cannot allocate a sound frame")
            pendingSamples = Array(repeating: [], count: audio.channels)
        } else {
            audioEncoder = nil
            audioStream = nil
            pendingSamples = []
        }
        // The source's own words (FFmpeg's ISO 8601), which the muxer parses into `mvhd`.
        if let creationTime { av_dict_set(&muxer.pointee.metadata, "creation_time", creationTime, 0) }
        var flags: OpaquePointer?
        // Segmented: fragments cut here (`frag_custom`), none at the end (`mfra` is no segment's).
        if isSegmented {
            av_dict_set(&flags, "movflags", "+frag_custom+empty_moov+default_base_moof+skip_trailer", 0)
        } else if isFragmented {
            av_dict_set(&flags, "movflags", "+frag_keyframe+empty_moov+default_base_moof", 0)
        }
        defer { av_dict_free(&flags) }
        try FFmpegError.check(avformat_write_header(muxer, &flags), "cannot write the MP4 header")
        initialisationBytes = Int(avio_tell(muxer.pointee.pb))
    }

    deinit {
        avformat_free_context(muxer)
        var encoder = audioEncoder
        if encoder != nil { avcodec_free_context(&encoder) }
    }

    private static func aacEncoder(_ audio: Audio) throws -> UnsafeMutablePointer<AVCodecContext> {
        guard let codec = avcodec_find_encoder_by_name("aac") else {
            throw FFmpegError("no AAC encoder in this FFmpeg", code: cffmpeg_averror(ENOSYS))
        }
        guard let context = avcodec_alloc_context3(codec) else { throw FFmpegError("cannot allocate an encoder", code: cffmpeg_averror(ENOMEM)) }
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = Int32(audio.sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(audio.channels))
        // 64 kb/s a channel: transparent for AAC-LC's speech and most music at web sizes.
        context.pointee.bit_rate = Int64(64_000 * audio.channels)
        context.pointee.time_base = AVRational(num: 1, den: Int32(audio.sampleRate))
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        let opened = avcodec_open2(context, codec, nil)
        if opened < 0 {
            var pointer: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&pointer)
            throw FFmpegError("cannot open the AAC encoder", code: opened)
        }
        return context
    }

    /// Adds a frame of 8-bit RGB rows of the writer's size, shown from `seconds` (after the first
    /// frame, at 0). A frame no later than the one before is passed over.
    /// `keyframe`: a segmented file's next segment starts here (its first frame is one in any case).
    public func addVideo(rgb pixels: UnsafeRawBufferPointer, channels: Int, seconds: Double, keyframe: Bool = false) throws {
        guard let timestamp = nextVideoTimestamp(seconds) else { return }
        try video.add(rgb: pixels, channels: channels, timestamp: timestamp, keyframe: keyframe && isSegmented) {
            try write($0, from: video.context, to: videoStream)
        }
        frameCount += 1
    }

    /// What the video encoder holds for `width` x `height` pictures at x264's `preset`: to be
    /// reserved before the writer is made.
    public static func encoderMemory(width: Int, height: Int, preset: String) -> Int {
        H264Encoder.memoryNeeded(width: width, height: height, preset: preset)
    }

    /// Adds a frame already in H.264's planes (`YCbCr420Scaler`'s), as `addVideo(rgb:)` does.
    public func addVideo(_ picture: YCbCr420Picture, seconds: Double, keyframe: Bool = false) throws {
        guard let timestamp = nextVideoTimestamp(seconds) else { return }
        try video.add(picture, timestamp: timestamp, keyframe: keyframe && isSegmented) { try write($0, from: video.context, to: videoStream) }
        frameCount += 1
    }

    /// The timestamp of a frame shown from `seconds`; nil for one not after the last (dropped).
    private func nextVideoTimestamp(_ seconds: Double) -> Int64? {
        let timestamp = Int64((seconds * Double(Self.videoClock)).rounded())
        guard timestamp > lastVideoTimestamp else { return nil }
        lastVideoTimestamp = timestamp
        return timestamp
    }

    /// Adds sound samples (one array a channel, of the `Audio` given) after those added before;
    /// they are held until `encodeAudio(through:)` or `finish` encodes them, so that sound decoded
    /// past the video's end is cut where the video ends.
    public func addAudio(_ block: [[Float]]) {
        guard audioEncoder != nil else { return }
        for channel in pendingSamples.indices { pendingSamples[channel] += block[min(channel, block.count - 1)] }
    }

    /// Adds `seconds` of silence after the sound added before: held as a count, made a frame at
    /// a time as it is encoded.
    public func addSilence(seconds: Double) {
        guard let audioEncoder, seconds > 0, seconds.isFinite else { return }
        silenceAhead += Int((seconds * Double(audioEncoder.pointee.sample_rate)).rounded())
    }

    /// Encodes the whole AAC frames of the sound held that end by `seconds`.
    public func encodeAudio(through seconds: Double) throws {
        guard let audioEncoder else { return }
        let size = Int(audioEncoder.pointee.frame_size)
        let through = isSegmented ? min(seconds, writtenVideoSeconds) : seconds
        let end = Int64((through * Double(audioEncoder.pointee.sample_rate)).rounded(.down))
        while pendingCount >= size && samplesSent + Int64(size) <= end { try encodePendingAudio(count: size) }
    }

    /// Samples added so far, in seconds.
    public var audioSeconds: Double {
        guard let audioEncoder else { return 0 }
        return Double(samplesSent + Int64(pendingCount)) / Double(audioEncoder.pointee.sample_rate)
    }

    private func encodePendingAudio(count: Int) throws {
        guard let audioEncoder, let audioStream else { return }
        try FFmpegError.check(av_frame_make_writable(audioFrame.pointer), "cannot allocate a sound frame")
        audioFrame.pointer.pointee.nb_samples = Int32(count)
        let silent = min(count, silenceAhead)
        let real = count - silent
        for channel in pendingSamples.indices {
            guard let plane = audioFrame.pointer.pointee.extended_data[channel] else { continue }
            let samples = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self)
            samples.initialize(repeating: 0, count: silent)
            guard real > 0 else { continue }
            pendingSamples[channel].withUnsafeBufferPointer { held in
                (samples + silent).update(from: held.baseAddress! + pendingStart, count: real)
            }
        }
        silenceAhead -= silent
        pendingStart += real
        if pendingStart >= 1 << 16 && pendingStart * 2 >= pendingSamples[0].count {
            for channel in pendingSamples.indices { pendingSamples[channel].removeFirst(pendingStart) }
            pendingStart = 0
        }
        audioFrame.pointer.pointee.pts = samplesSent
        samplesSent += Int64(count)
        try FFmpegError.check(avcodec_send_frame(audioEncoder, audioFrame.pointer), "cannot encode the sound")
        try receivePackets(from: audioEncoder, to: audioStream)
    }

    private func receivePackets(from encoder: UnsafeMutablePointer<AVCodecContext>, to stream: UnsafeMutablePointer<AVStream>) throws {
        let packet = Packet()
        while true {
            let received = avcodec_receive_packet(encoder, packet.pointer)
            if received == FFmpegError.tryAgain || received == FFmpegError.endOfFile { return }
            try FFmpegError.check(received, "cannot encode the sound")
            try write(packet.pointer, from: encoder, to: stream)
        }
    }

    private func write(_ packet: UnsafeMutablePointer<AVPacket>, from encoder: UnsafeMutablePointer<AVCodecContext>,
                       to stream: UnsafeMutablePointer<AVStream>) throws {
        // A segmented file's fragment holds no time of its own for each frame, only a length: the
        // last frame of a fragment given a nominal length moved the next fragment's keyframe to
        // match (a frame after a gap of 3 hours shown 3 hours early). Each video packet waits for
        // the next, whose time gives its length.
        if isSegmented && stream == videoStream {
            if heldVideoIsPending {
                let length = packet.pointee.dts - heldVideo.pointer.pointee.dts
                heldVideo.pointer.pointee.duration = length > 0 ? length : frameTicks
                try mux(heldVideo.pointer, from: encoder, to: stream)
            }
            av_packet_move_ref(heldVideo.pointer, packet)
            heldVideoIsPending = true
            return
        }
        try mux(packet, from: encoder, to: stream)
    }

    /// Muxes the video packet held back, lasting until `endSeconds`.
    private func writeHeldVideo(endingAt endSeconds: Double) throws {
        guard heldVideoIsPending else { return }
        heldVideoIsPending = false
        let length = Int64((endSeconds * Double(Self.videoClock)).rounded()) - heldVideo.pointer.pointee.dts
        heldVideo.pointer.pointee.duration = length > 0 ? length : frameTicks
        try mux(heldVideo.pointer, from: video.context, to: videoStream)
    }

    private func mux(_ packet: UnsafeMutablePointer<AVPacket>, from encoder: UnsafeMutablePointer<AVCodecContext>,
                     to stream: UnsafeMutablePointer<AVStream>) throws {
        packet.pointee.stream_index = stream.pointee.index
        if stream == videoStream && packet.pointee.duration <= 0 { packet.pointee.duration = frameTicks }
        if isSegmented && stream == videoStream {
            let seconds = Double(packet.pointee.pts) * av_q2d(encoder.pointee.time_base)
            // A keyframe starts a fragment: what came before it is written out as the last one.
            if packet.pointee.flags & AV_PKT_FLAG_KEY != 0 {
                if !fragmentStarts.isEmpty { try cutFragment() }
                fragmentStarts.append((Int(avio_tell(muxer.pointee.pb)), seconds))
            }
            writtenVideoSeconds = max(writtenVideoSeconds, seconds)
        }
        av_packet_rescale_ts(packet, encoder.pointee.time_base, stream.pointee.time_base)
        // av_interleaved_write_frame takes the packet's data and leaves it blank.
        let written = av_interleaved_write_frame(muxer, packet)
        if let failure = output.failure { throw failure }
        try FFmpegError.check(written, "cannot write the MP4 file")
    }

    /// Writes every packet given so far as one fragment.
    private func cutFragment() throws {
        let interleaved = av_interleaved_write_frame(muxer, nil)
        if let failure = output.failure { throw failure }
        try FFmpegError.check(interleaved, "cannot write the MP4 file")
        let cut = av_write_frame(muxer, nil)
        if let failure = output.failure { throw failure }
        try FFmpegError.check(cut, "cannot write the MP4 file")
    }

    /// RFC 6381's names of the file's codecs (an HLS master playlist's CODECS): H.264's profile,
    /// constraints and level from its sequence parameter set; AAC-LC where there is sound.
    public var codecs: String {
        let context = video.context.pointee
        let header = context.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(max(0, context.extradata_size)))) } ?? []
        let video = Self.avc1Name(header) ?? "avc1.640028"
        return audioEncoder == nil ? video : video + ",mp4a.40.2"
    }

    /// "avc1.PPCCLL" from an H.264 header: an `avcC` record (version 1 first) or Annex B units
    /// (its sequence parameter set, type 7, after a start code).
    static func avc1Name(_ header: [UInt8]) -> String? {
        var parameters: ArraySlice<UInt8>?
        if header.first == 1, header.count >= 4 {
            parameters = header[1..<4]
        } else {
            var index = 0
            while index + 3 < header.count {
                if header[index] == 0, header[index + 1] == 0, header[index + 2] == 1 {
                    if header[index + 3] & 0x1F == 7, index + 7 <= header.count { parameters = header[(index + 4)..<(index + 7)]; break }
                    index += 3
                } else {
                    index += 1
                }
            }
        }
        guard let parameters else { return nil }
        return "avc1." + parameters.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// A segmented file's segments, once it is finished: each from its keyframe to the next.
    public var segments: [Segment] {
        guard let fragmentsEnd else { return [] }
        let ends = fragmentStarts.dropFirst().map(\.offset) + [fragmentsEnd]
        return zip(fragmentStarts, ends).map { Segment(offset: $0.offset, bytes: $1 - $0.offset, seconds: $0.seconds) }
    }

    /// Ends the file: the last sound (cut at `endSeconds`, the video's end), both encoders
    /// drained, the index written. Its size in bytes.
    public func finish(endSeconds: Double) throws -> Int {
        guard frameCount > 0 else { throw FFmpegError("no frame to encode", code: cffmpeg_averror(EINVAL)) }
        try video.finish { try write($0, from: video.context, to: videoStream) }
        if let audioEncoder, let audioStream {
            // Cut where the video ends: silence first, then the sound after it.
            let wanted = max(0, Int((endSeconds * Double(audioEncoder.pointee.sample_rate)).rounded()) - Int(samplesSent))
            silenceAhead = min(silenceAhead, wanted)
            let real = max(0, wanted - silenceAhead)
            for channel in pendingSamples.indices where pendingSamples[channel].count - pendingStart > real {
                pendingSamples[channel].removeLast(pendingSamples[channel].count - pendingStart - real)
            }
            let size = Int(audioEncoder.pointee.frame_size)
            while pendingCount > 0 { try encodePendingAudio(count: min(size, pendingCount)) }
            try FFmpegError.check(avcodec_send_frame(audioEncoder, nil), "cannot encode the sound")
            try receivePackets(from: audioEncoder, to: audioStream)
        }
        if isSegmented {
            try writeHeldVideo(endingAt: endSeconds)
            writtenVideoSeconds = .infinity
            try cutFragment()
            fragmentsEnd = Int(avio_tell(muxer.pointee.pb))
        }
        let ended = av_write_trailer(muxer)
        if let failure = output.failure { throw failure }
        try FFmpegError.check(ended, "cannot finish the MP4 file")
        output.flush()
        if let failure = output.failure { throw failure }
        return output.size
    }
}

/// An AVIOContext over a descriptor: writes at the position FFmpeg keeps (pwrite), and seeks
/// where the descriptor is a file it may read back (`FileSystem.isRewritableFile`). A failed write is kept (with the system's words) and the
/// muxer told the write failed.
final class DescriptorOutput {
    private(set) var io: UnsafeMutablePointer<AVIOContext>!
    private(set) var failure: SystemError?
    private let descriptor: Int32
    private let target: String
    let isSeekable: Bool
    private var position = 0
    /// The furthest byte written: the file's size.
    private(set) var size = 0

    /// `seeks`: whether the muxer may seek where the descriptor allows it.
    init(descriptor: Int32, target: String, seeks: Bool = true) {
        self.descriptor = descriptor
        self.target = target
        isSeekable = seeks && FileSystem.isRewritableFile(descriptor)
        let bufferSize: Int32 = 1 << 18
        let buffer = av_malloc(Int(bufferSize))!
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        io = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), bufferSize, 1, opaque, nil, { opaque, source, count in
            let output = Unmanaged<DescriptorOutput>.fromOpaque(opaque!).takeUnretainedValue()
            return output.write(UnsafeRawBufferPointer(start: source, count: Int(count)))
        }, isSeekable ? { opaque, offset, whence in
            Unmanaged<DescriptorOutput>.fromOpaque(opaque!).takeUnretainedValue().seek(offset, whence)
        } : nil)
    }

    deinit {
        av_free(io.pointee.buffer)
        var context: UnsafeMutablePointer<AVIOContext>? = io
        avio_context_free(&context)
    }

    func flush() { avio_flush(io) }

    private func write(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard failure == nil else { return cffmpeg_averror(EIO) }
        do {
            try FileSystem.writeAll(bytes, to: descriptor, at: isSeekable ? position : nil, target: target)
        } catch {
            failure = error
            return cffmpeg_averror(EIO)
        }
        position += bytes.count
        size = max(size, position)
        return Int32(bytes.count)
    }

    private func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        MemoryOutput.seek(offset, whence, position: &position, size: size)
    }
}

private extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
