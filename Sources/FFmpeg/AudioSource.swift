import CFFmpeg
import FileIO
import Imaging

/// The main sound track of a media file (FFmpeg's choice: the default one), decoded in order to
/// 32-bit float samples, one array a channel, mono or stereo: more channels are mixed down to
/// two by what each channel is in the track's layout (`StereoDownmix`: the centre, sides and
/// backs at -3 dB, the low frequencies left out, as ITU-R BS.775 mixes).
public final class AudioSource {
    private let format: FormatContext
    private let streamIndex: Int
    private let decoder: Decoder
    /// Samples a second, as decoded.
    public let sampleRate: Int
    /// The channels handed out: 1 or 2.
    public let channels: Int
    /// The codec's name, for reports (`pcm_s16le`, `aac`, `alac`).
    public let codecName: String
    /// Where the first sample plays, in seconds of the file's clock (the video's start is on the same clock).
    public private(set) var startSeconds: Double
    private let timeBase: AVRational
    /// What this reader holds of the run's budget: its container's index.
    public var heldBytes: Int { format.indexBytes }
    /// How the track's channels make two, where it has more than two.
    private let downmix: StereoDownmix?

    /// The file's main sound track; nil when it has none.
    public static func open(file: InputFile, limits: DecodeLimits) throws -> AudioSource? {
        let format = try FormatContext(file: file, limits: limits)
        let best = av_find_best_stream(format.pointer, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard best >= 0 else { return nil }
        return try AudioSource(format: format, streamIndex: Int(best))
    }

    private init(format: FormatContext, streamIndex: Int) throws {
        self.format = format
        self.streamIndex = streamIndex
        let stream = format.stream(streamIndex)
        decoder = try Decoder(stream: stream, threads: 1, maxPixels: 1)
        let parameters = stream.pointee.codecpar.pointee
        sampleRate = Int(parameters.sample_rate)
        guard sampleRate > 0, sampleRate <= 768_000, parameters.ch_layout.nb_channels > 0 else {
            throw FFmpegError("the sound track states \(parameters.ch_layout.nb_channels) channels at \(sampleRate) Hz", code: cffmpeg_averror_invaliddata())
        }
        channels = parameters.ch_layout.nb_channels >= 2 ? 2 : 1
        var layout = parameters.ch_layout
        downmix = layout.nb_channels > 2 ? StereoDownmix(layout: &layout) : nil
        codecName = String(cString: avcodec_get_name(parameters.codec_id))
        timeBase = stream.pointee.time_base
        let start = stream.pointee.start_time
        startSeconds = start == cffmpeg_nopts_value() || timeBase.den == 0 ? 0 : Double(start) * Double(timeBase.num) / Double(timeBase.den)
    }

    private let packet = Packet()
    private let frame = Frame()
    private var errors = DecodeErrors()
    private var readsOn = true
    private var isDrained = false
    private var isFirst = true

    /// The next block of decoded sound, in order (one array a channel, `channels` of them); nil at
    /// the end. Damaged packets are passed over (a gap shortens the sound), within
    /// `DecodeErrors.limit`.
    public func nextBlock() throws -> [[Float]]? {
        while !isDrained {
            if errors.areTooMany {
                throw FFmpegError("cannot decode the sound: \(errors.last ?? "too many damaged packets")", code: cffmpeg_averror_invaliddata())
            }
            switch decoder.receive(into: frame, noting: &errors) {
            case nil:
                continue
            case .finished:
                isDrained = true
            case .frame:
                if isFirst, let timestamp = frame.timestamp, timeBase.den > 0 {
                    startSeconds = Double(timestamp) * Double(timeBase.num) / Double(timeBase.den)
                }
                isFirst = false
                if let block = Self.samples(of: frame, channels: channels, downmix: downmix) { return block }
            case .needsInput:
                guard readsOn else { isDrained = true; continue }
                if try format.read(into: packet) {
                    if packet.streamIndex == streamIndex { _ = decoder.send(packet, noting: &errors) }
                } else {
                    decoder.sendEndOfStream()
                    readsOn = false
                }
            }
        }
        return nil
    }

    /// The frame's samples as float, one array a channel, mixed to `channels`; nil for a sample
    /// format this does not read.
    static func samples(of frame: Frame, channels wanted: Int, downmix: StereoDownmix?) -> [[Float]]? {
        let picture = frame.pointer.pointee
        let count = Int(picture.nb_samples)
        let sourceChannels = Int(picture.ch_layout.nb_channels)
        guard count > 0, sourceChannels > 0, let data = picture.extended_data else { return nil }
        let kind = AVSampleFormat(rawValue: picture.format)
        let planar: Bool
        let read: (UnsafeRawPointer, Int) -> Float
        switch kind {
        case AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_U8P:
            read = { (Float($0.load(fromByteOffset: $1, as: UInt8.self)) - 128) / 128 }
        case AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P:
            read = { Float($0.loadUnaligned(fromByteOffset: $1 * 2, as: Int16.self)) / 32768 }
        case AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P:
            read = { Float($0.loadUnaligned(fromByteOffset: $1 * 4, as: Int32.self)) / 2_147_483_648 }
        case AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_FLTP:
            read = { $0.loadUnaligned(fromByteOffset: $1 * 4, as: Float.self) }
        case AV_SAMPLE_FMT_DBL, AV_SAMPLE_FMT_DBLP:
            read = { Float($0.loadUnaligned(fromByteOffset: $1 * 8, as: Double.self)) }
        case AV_SAMPLE_FMT_S64, AV_SAMPLE_FMT_S64P:
            read = { Float(Double($0.loadUnaligned(fromByteOffset: $1 * 8, as: Int64.self)) / 9_223_372_036_854_775_808) }
        default:
            return nil
        }
        planar = [AV_SAMPLE_FMT_U8P, AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_S32P, AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_DBLP, AV_SAMPLE_FMT_S64P].contains(kind)
        func sample(_ channel: Int, _ index: Int) -> Float {
            guard channel < sourceChannels else { return 0 }
            if planar {
                guard let plane = data[channel] else { return 0 }
                return read(UnsafeRawPointer(plane), index)
            }
            guard let plane = data[0] else { return 0 }
            return read(UnsafeRawPointer(plane), index * sourceChannels + channel)
        }
        if wanted == 1 { return [(0..<count).map { sample(0, $0) }] }
        if sourceChannels <= 2 {
            let left = (0..<count).map { sample(0, $0) }
            return [left, sourceChannels == 1 ? left : (0..<count).map { sample(1, $0) }]
        }
        // Each channel by its place in the layout; the frame's count, should it differ from
        // the track's, as 5.1's first channels (the layout of the track's own count otherwise).
        let mix = downmix ?? StereoDownmix(channels: sourceChannels)
        var left = [Float](repeating: 0, count: count), right = [Float](repeating: 0, count: count)
        for (channel, weight) in mix.weights.enumerated() where channel < sourceChannels && (weight.left != 0 || weight.right != 0) {
            for index in 0..<count {
                let value = sample(channel, index)
                left[index] += weight.left * value
                right[index] += weight.right * value
            }
        }
        return [left, right]
    }
}

/// How the channels of a track of more than two make stereo: each by what it is in the
/// track's layout (not its place: 7.1's sides are its 7th and 8th channels, quad's backs its
/// 3rd and 4th). Fronts go to their side, the centre to both at -3 dB, sides and backs to
/// their side at -3 dB, a back centre to both at -6 dB, the low frequencies nowhere (ITU-R
/// BS.775); the weights then scaled so that full scale on every channel stays full scale.
struct StereoDownmix {
    /// A (left, right) weight for each channel, in the track's order.
    let weights: [(left: Float, right: Float)]

    init(layout: inout AVChannelLayout) {
        // A layout that names no channels (only their count): the count's usual layout.
        if layout.order != AV_CHANNEL_ORDER_NATIVE && layout.order != AV_CHANNEL_ORDER_CUSTOM {
            self.init(channels: Int(layout.nb_channels))
            return
        }
        let count = Int(layout.nb_channels)
        self.init(channels: (0..<count).map { av_channel_layout_channel_from_index(&layout, UInt32($0)) })
    }

    /// The usual layout of `channels` channels (5.1's order for six).
    init(channels: Int) {
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(channels))
        defer { av_channel_layout_uninit(&layout) }
        let named = (0..<channels).map { av_channel_layout_channel_from_index(&layout, UInt32($0)) }
        self.init(channels: named)
    }

    private init(channels: [AVChannel]) {
        let half: Float = 0.7071
        let raw: [(left: Float, right: Float)] = channels.map { channel in
            switch channel {
            case AV_CHAN_FRONT_LEFT, AV_CHAN_FRONT_LEFT_OF_CENTER, AV_CHAN_WIDE_LEFT, AV_CHAN_STEREO_LEFT: (1, 0)
            case AV_CHAN_FRONT_RIGHT, AV_CHAN_FRONT_RIGHT_OF_CENTER, AV_CHAN_WIDE_RIGHT, AV_CHAN_STEREO_RIGHT: (0, 1)
            case AV_CHAN_FRONT_CENTER, AV_CHAN_TOP_FRONT_CENTER, AV_CHAN_TOP_CENTER: (half, half)
            case AV_CHAN_BACK_LEFT, AV_CHAN_SIDE_LEFT, AV_CHAN_TOP_FRONT_LEFT, AV_CHAN_TOP_BACK_LEFT, AV_CHAN_SURROUND_DIRECT_LEFT,
                 AV_CHAN_TOP_SIDE_LEFT: (half, 0)
            case AV_CHAN_BACK_RIGHT, AV_CHAN_SIDE_RIGHT, AV_CHAN_TOP_FRONT_RIGHT, AV_CHAN_TOP_BACK_RIGHT, AV_CHAN_SURROUND_DIRECT_RIGHT,
                 AV_CHAN_TOP_SIDE_RIGHT: (0, half)
            case AV_CHAN_BACK_CENTER, AV_CHAN_TOP_BACK_CENTER: (0.5, 0.5)
            case AV_CHAN_LOW_FREQUENCY, AV_CHAN_LOW_FREQUENCY_2, AV_CHAN_UNUSED: (0, 0)
            // A channel the layout does not name (an ambisonic or unknown one): heard in both, at -6 dB.
            default: (0.5, 0.5)
            }
        }
        let loudest = max(raw.reduce(0) { $0 + $1.left }, raw.reduce(0) { $0 + $1.right }, 1)
        weights = raw.map { ($0.left / loudest, $0.right / loudest) }
    }
}
