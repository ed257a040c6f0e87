import CFFmpeg
import FileIO
import Imaging

/// What a media file's container says of it, read from its header and index: no frame is decoded
/// where the header states every stream's parameters (see `FormatContext.headerDescribesEverything`).
public struct MediaFacts: Sendable {
    /// FFmpeg's demuxer (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`).
    public var demuxer: String
    /// QuickTime's and MP4's major brand (`qt  `, `isom`, `M4A `), where the file has one.
    public var majorBrand: String?
    public var duration: Double?
    /// Bits a second over the whole file.
    public var bitRate: Int?
    /// The file's metadata tags, keys lower-cased (creation_time, location, com.apple.quicktime.*).
    public var tags: [String: String]
    public var streams: [StreamFacts]
    /// The stream `thumbnail` shows: FFmpeg's best video stream that is not cover art.
    public var mainVideoStream: Int?
    /// Whether opening had to decode the first frames because the header did not say everything.
    public var probedByDecoding: Bool
    /// The main video stream's frames that the container's index places past the file's end (a
    /// file cut short whose index is at its front), and all its index holds; nil without an index.
    public var framesPastTheEnd: (missing: Int, indexed: Int)?

    /// A still or animated picture (GIF, APNG, FFmpeg's image pipes: BMP, PSD, ...), not a video,
    /// whatever number of frames it has: browsers show it as an image, Active Storage analyses it
    /// as one, and vips and Pillow read its first frame.
    public var isPicture: Bool { Self.isPictureDemuxer(demuxer) }

    public static func isPictureDemuxer(_ demuxer: String) -> Bool {
        demuxer == "gif" || demuxer == "image2" || demuxer.hasSuffix("_pipe") || demuxer == "apng" || demuxer == "ico"
    }
}

/// One stream of a media file.
public struct StreamFacts: Sendable {
    public enum Kind: String, Sendable { case video, audio, subtitle, data, attachment, unknown }
    public var kind: Kind
    /// FFmpeg's codec name (`hevc`, `aac`).
    public var codec: String
    public var profile: String?
    public var language: String?
    public var isAttachedPicture: Bool
    public var isDefault: Bool
    // Video.
    public var codedWidth = 0
    public var codedHeight = 0
    public var pixelAspect: (numerator: Int, denominator: Int) = (1, 1)
    /// The display matrix as an orientation, and whether it turns by a multiple of 90 degrees.
    public var orientation: Orientation = .identity
    public var orientationIsExact = true
    public var pixelFormat: String?
    public var bitDepth: Int?
    /// nil where the container does not say.
    public var interlaced: Bool?
    public var averageFrameRate: Double?
    public var nominalFrameRate: Double?
    public var frames: Int?
    /// The longest run of frames from one keyframe to the next, from the index.
    public var keyframeInterval: Int?
    public var colourPrimaries: String?
    public var colourTransfer: String?
    public var colourMatrix: String?
    public var colourRange: String?
    /// Dolby Vision's profile, from the stream's configuration record.
    public var dolbyVisionProfile: Int?
    public var bitRate: Int?
    public var duration: Double?
    // Audio.
    public var channels = 0
    public var sampleRate = 0
}

extension MediaFacts {
    /// Reads `file`'s header within `limits` (what any decoder that probing starts may allocate,
    /// and the index FFmpeg builds, held of the run's budget while it reads).
    public static func read(_ file: InputFile, limits: DecodeLimits = DecodeLimits()) throws -> MediaFacts {
        let format = try FormatContext(file: file, limits: limits, readsHeadersOnly: true)
        let context = format.pointer.pointee
        let tags = Self.tags(context.metadata)
        let streams = (0..<format.streamCount).map { StreamFacts(format.stream($0), in: format) }
        let duration = format.durationSeconds.flatMap(plausibleDuration) ?? streams.compactMap(\.duration).max()
        var bitRate = context.bit_rate > 0 ? Int(context.bit_rate) : nil
        if bitRate == nil, let duration, let size = file.size, size > 0 {
            // As FFmpeg estimates it after probing: the file's bits over its duration.
            let rate = (Double(size) * 8 / duration).rounded(.down)
            bitRate = rate >= 1 && rate < 1e15 ? Int(rate) : nil
        }
        let main = format.bestVideoStreamIndex()
        var facts = MediaFacts(demuxer: String(cString: context.iformat.pointee.name), majorBrand: tags["major_brand"],
                               duration: duration, bitRate: bitRate, tags: tags, streams: streams,
                               mainVideoStream: main, probedByDecoding: format.streamsWereProbed)
        if let main, let size = file.size { facts.framesPastTheEnd = format.indexedFrames(ofStream: main, pastByteCount: size) }
        return facts
    }

    /// The packets of stream `index` from the start to the end: its real frame count, read without
    /// decoding any.
    public static func countPackets(_ file: InputFile, stream index: Int, limits: DecodeLimits = DecodeLimits()) throws -> Int {
        let format = try FormatContext(file: file, limits: limits, readsHeadersOnly: true)
        let packet = Packet()
        var count = 0
        while try format.read(into: packet) {
            if Int(packet.pointer.pointee.stream_index) == index { count += 1 }
        }
        if let error = format.readError { throw error }
        return count
    }

    /// A duration a header may state: more than nothing, less than a century (a hostile header's
    /// 9e18 s, or one tick of a 2-gigahertz time base, is no duration).
    static func plausibleDuration(_ seconds: Double) -> Double? {
        seconds.isFinite && seconds >= 1e-6 && seconds < 3.2e9 ? seconds : nil
    }

    static func tags(_ dictionary: OpaquePointer?) -> [String: String] {
        var tags: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while true {
            entry = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX)
            guard let found = entry else { break }
            let key = String(decoding: UnsafeRawBufferPointer(start: found.pointee.key, count: strlen(found.pointee.key)), as: UTF8.self)
            tags[key.lowercased()] = String(decoding: UnsafeRawBufferPointer(start: found.pointee.value, count: strlen(found.pointee.value)), as: UTF8.self)
        }
        return tags
    }
}

extension StreamFacts {
    init(_ stream: UnsafeMutablePointer<AVStream>, in format: FormatContext) {
        let parameters = stream.pointee.codecpar.pointee
        switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: kind = .video
        case AVMEDIA_TYPE_AUDIO: kind = .audio
        case AVMEDIA_TYPE_SUBTITLE: kind = .subtitle
        case AVMEDIA_TYPE_DATA: kind = .data
        case AVMEDIA_TYPE_ATTACHMENT: kind = .attachment
        default: kind = .unknown
        }
        codec = String(cString: avcodec_get_name(parameters.codec_id))
        profile = parameters.profile == FF_PROFILE_UNKNOWN ? nil
            : avcodec_profile_name(parameters.codec_id, parameters.profile).map { String(cString: $0) }
        let tags = MediaFacts.tags(stream.pointee.metadata)
        language = tags["language"].flatMap { $0 == "und" || $0.isEmpty ? nil : $0 }
        isAttachedPicture = stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
        isDefault = stream.pointee.disposition & AV_DISPOSITION_DEFAULT != 0
        bitRate = parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil
        let timeBase = stream.pointee.time_base
        if stream.pointee.duration != cffmpeg_nopts_value(), stream.pointee.duration > 0, timeBase.den > 0 {
            duration = MediaFacts.plausibleDuration(Double(stream.pointee.duration) * Double(timeBase.num) / Double(timeBase.den))
        }
        switch kind {
        case .video: readVideo(stream, in: format)
        case .audio:
            channels = Int(parameters.ch_layout.nb_channels)
            sampleRate = Int(parameters.sample_rate)
        default: break
        }
    }

    private mutating func readVideo(_ stream: UnsafeMutablePointer<AVStream>, in format: FormatContext) {
        let parameters = stream.pointee.codecpar.pointee
        codedWidth = Int(parameters.width)
        codedHeight = Int(parameters.height)
        let ratio = av_guess_sample_aspect_ratio(format.pointer, stream, nil)
        if ratio.num > 0, ratio.den > 0 { pixelAspect = (Int(ratio.num), Int(ratio.den)) }
        (orientation, orientationIsExact) = VideoSource.orientation(of: stream)
        dolbyVisionProfile = VideoSource.dolbyVision(of: stream)?.profile
        readSampleFormat(parameters)
        switch parameters.field_order {
        case AV_FIELD_PROGRESSIVE: interlaced = false
        case AV_FIELD_TT, AV_FIELD_BB, AV_FIELD_TB, AV_FIELD_BT: interlaced = true
        default: interlaced = nil
        }
        // A frame rate a header may state: a frame a quarter-hour to a high-speed camera's (a hostile
        // 4194304 fps, or one frame in 9e18 s, is none).
        let rate = { (value: AVRational) -> Double? in
            guard value.num > 0, value.den > 0 else { return nil }
            let rate = Double(value.num) / Double(value.den)
            return rate >= 0.001 && rate <= 100_000 ? rate : nil
        }
        averageFrameRate = rate(stream.pointee.avg_frame_rate)
        nominalFrameRate = rate(stream.pointee.r_frame_rate)
        frames = stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil
        keyframeInterval = Self.longestKeyframeInterval(stream, frames: frames)
        let name = { (text: UnsafePointer<CChar>?) -> String? in text.map { String(cString: $0) } }
        if parameters.color_primaries != AVCOL_PRI_UNSPECIFIED { colourPrimaries = name(av_color_primaries_name(parameters.color_primaries)) }
        if parameters.color_trc != AVCOL_TRC_UNSPECIFIED { colourTransfer = name(av_color_transfer_name(parameters.color_trc)) }
        if parameters.color_space != AVCOL_SPC_UNSPECIFIED { colourMatrix = name(av_color_space_name(parameters.color_space)) }
        if parameters.color_range != AVCOL_RANGE_UNSPECIFIED { colourRange = name(av_color_range_name(parameters.color_range)) }
    }

    /// The pixel format the decoder will give: probing's where the streams were probed, else the
    /// configuration record's.
    private mutating func readSampleFormat(_ parameters: AVCodecParameters) {
        if parameters.format >= 0, let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: parameters.format)) {
            pixelFormat = av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.format)).map { String(cString: $0) }
            bitDepth = Int(descriptor.pointee.comp.0.depth)
            return
        }
        guard let extradata = parameters.extradata, parameters.extradata_size > 0 else { return }
        let record = Array(UnsafeBufferPointer(start: extradata, count: Int(parameters.extradata_size)))
        let configuration: CodecConfiguration?
        switch parameters.codec_id {
        case AV_CODEC_ID_H264: configuration = .avc(record)
        case AV_CODEC_ID_HEVC: configuration = .hevc(record)
        case AV_CODEC_ID_AV1: configuration = .av1(record)
        default: configuration = nil
        }
        guard let configuration, configuration.isPlausible else { return }
        if profile == nil, let numbered = configuration.profile {
            profile = avcodec_profile_name(parameters.codec_id, numbered).map { String(cString: $0) }
        }
        pixelFormat = configuration.pixelFormatName
        bitDepth = configuration.bitDepth
    }

    /// The most frames from a keyframe to the next (or to the end), by the index; nil without one
    /// that lists every frame (Matroska's cues, and what probing read of a file without them,
    /// list keyframes only: their gaps say nothing).
    private static func longestKeyframeInterval(_ stream: UnsafeMutablePointer<AVStream>, frames: Int?) -> Int? {
        let count = Int(avformat_index_get_entries_count(stream))
        guard count > 0, let frames, count == frames else { return nil }
        var longest = 0, run = 0, sawKeyframe = false
        for index in 0..<count {
            guard let entry = avformat_index_get_entry(stream, Int32(index)) else { return nil }
            if entry.pointee.flags & AVINDEX_KEYFRAME != 0 {
                if sawKeyframe { longest = max(longest, run) }
                sawKeyframe = true
                run = 0
            }
            run += 1
        }
        guard sawKeyframe else { return nil }
        return max(longest, run)
    }
}
