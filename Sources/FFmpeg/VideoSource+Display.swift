import CFFmpeg
import Imaging
import FileIO

/// How the stream's frames are shown: duration, orientation, pixel aspect, colours, and pixels.
extension VideoSource {
    /// The stream's duration in seconds, or the file's when the stream does not state its own.
    public var durationSeconds: Double? {
        let duration = stream.pointee.duration
        if duration != cffmpeg_nopts_value() && duration > 0 { return seconds(ticks: duration) }
        return format.durationSeconds
    }

    /// The duration the video stream itself states, in seconds; nil where it states none (the
    /// file's may be its sound's).
    public var streamDurationSeconds: Double? {
        let duration = stream.pointee.duration
        return duration != cffmpeg_nopts_value() && duration > 0 ? seconds(ticks: duration) : nil
    }

    /// The display matrix of the stream, as an orientation, and whether it is exact.
    public var streamOrientation: (orientation: Orientation, isExact: Bool) { Self.orientation(of: stream) }

    /// The display matrix of `stream`, as an orientation, and whether it is exact (`probe` reads it too).
    static func orientation(of stream: UnsafeMutablePointer<AVStream>) -> (orientation: Orientation, isExact: Bool) {
        var size: size_t = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else {
            return (.identity, true)
        }
        let matrix = (0..<9).map { UnsafeRawPointer(data).loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self) }
        return Orientation.nearest(toDisplayMatrix: matrix)
    }

    /// The stream's Dolby Vision profile and base-layer compatibility (0: none, 1: HDR10, 2: SDR,
    /// 4: HLG), from its configuration record; nil for a stream without one.
    public var dolbyVision: (profile: Int, compatibility: Int)? { Self.dolbyVision(of: stream) }

    static func dolbyVision(of stream: UnsafeMutablePointer<AVStream>) -> (profile: Int, compatibility: Int)? {
        var size: size_t = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DOVI_CONF, &size),
              size >= MemoryLayout<AVDOVIDecoderConfigurationRecord>.size else { return nil }
        let record = UnsafeRawPointer(data).loadUnaligned(as: AVDOVIDecoderConfigurationRecord.self)
        return (Int(record.dv_profile), Int(record.dv_bl_signal_compatibility_id))
    }

    /// The orientation of `frame`: its own display matrix when it has one, else the stream's.
    public func orientation(of frame: Frame) -> (orientation: Orientation, isExact: Bool) {
        frame.displayMatrix.map(Orientation.nearest(toDisplayMatrix:)) ?? streamOrientation
    }

    /// The orientation that turns `frame` upright, and the warning to give when the display matrix
    /// turns it by other than a multiple of 90 degrees (the nearest is applied).
    public func uprightOrientation(of frame: Frame) -> (orientation: Orientation, warning: String?) {
        let found = orientation(of: frame)
        return (found.orientation, found.isExact ? nil
            : "the display matrix turns by other than a multiple of 90 degrees: applied \(found.orientation)")
    }

    /// How `frame` is shown: turned upright by its display matrix (when `upright`; the nearest
    /// quarter turn, with a warning when the matrix turns otherwise), widened to square pixels by
    /// its pixel aspect, and fitted inside `maxWidth` x `maxHeight` (upright coordinates). The one
    /// place a frame's display geometry is worked out: thumbnails, storyboards, probes and the
    /// library's frames all take it from here.
    public func display(of frame: Frame, upright: Bool = true, maxWidth: Int? = nil, maxHeight: Int? = nil)
        -> (geometry: DisplayGeometry, warning: String?) {
        let (orientation, warning) = upright ? uprightOrientation(of: frame) : (.identity, nil)
        let geometry = DisplayGeometry(codedWidth: frame.width, codedHeight: frame.height, pixelAspect: pixelAspectRatio(of: frame),
                                       orientation: orientation, maxWidth: maxWidth, maxHeight: maxHeight)
        return (geometry, warning)
    }

    /// `frame` upright at `geometry` (from `display(of:)`): scaled to its size, tone mapped or
    /// kept 16-bit as `pixels(of:)` says, then turned.
    public func uprightPixels(of frame: Frame, _ geometry: DisplayGeometry, deinterlaces: Bool = true, sixteenBit: Bool = false,
                              threads: Int = 0) throws -> PixelBuffer {
        try pixels(of: frame, width: geometry.scaledWidth, height: geometry.scaledHeight, deinterlaces: deinterlaces,
                   sixteenBit: sixteenBit, threads: threads).oriented(geometry.orientation)
    }

    /// The warning a picture of this video carries when its colours cannot be right: Dolby Vision
    /// whose base layer is compatible with nothing (profile 5: IPTPQc2) needs the RPU, which FFmpeg
    /// 5.1 does not apply; profiles 8.1 and 8.4 have an HDR10 or HLG base layer, which is what is decoded.
    public var colourWarning: String? {
        guard let dolbyVision, dolbyVision.compatibility == 0 else { return nil }
        return "Dolby Vision profile \(dolbyVision.profile) has no HDR10, HLG or SDR base layer: its colours are approximate"
    }

    /// The pixel aspect ratio of `frame` (width over height of one pixel); 1 when unknown.
    public func pixelAspectRatio(of frame: Frame) -> (numerator: Int, denominator: Int) {
        let ratio = av_guess_sample_aspect_ratio(format.pointer, stream, frame.pointer)
        guard ratio.num > 0, ratio.den > 0 else { return (1, 1) }
        return (Int(ratio.num), Int(ratio.den))
    }

    /// Converts `frame` to RGB or RGBA pixels of the given size, in its own colours; an interlaced
    /// frame deinterlaced first (`deinterlaces`), before any scaling mixes its fields.
    /// `sixteenBit`: 16-bit R'G'B' with the frame's own transfer and primaries (HDR kept as HDR,
    /// 10 and 12-bit precision kept); otherwise 8-bit sRGB, HDR tone mapped.
    /// `threads`: the conversion's; 0 for every core.
    public func pixels(of frame: Frame, width: Int, height: Int, deinterlaces: Bool = true, sixteenBit: Bool = false,
                       threads: Int = 0) throws -> PixelBuffer {
        try holdMemory(for: frame, width: width, height: height)
        if deinterlaces && Deinterlacer.isInterlaced(frame) { try Deinterlacer.deinterlace(frame) }
        if sixteenBit { return try FrameConverter.rgb16(of: frame, width: width, height: height, threads: threads) }
        return try FrameConverter.pixels(of: frame, width: width, height: height, threads: threads)
    }

    /// Checks the picture to be made against the limits before it is allocated: its own size (a
    /// hostile pixel aspect ratio made a 4 KB clip a 32768x4096 picture), and the frame's, which may
    /// be larger than the container said (a header saying 16x16 over 8000x8000 frames). A frame
    /// larger than was reserved for takes more of the run's budget, or fails.
    func holdMemory(for frame: Frame, width: Int, height: Int) throws {
        try limits.checkVideoFrame(width: width, height: height)
        let pixels = frame.width * frame.height
        if pixels > reservedPixels {
            reservation = nil
            reservation = try limits.reserveVideoFrame(width: frame.width, height: frame.height)
            reservedPixels = pixels
        }
        hasShownAFrame = true
    }

    /// Whether `frame` is coded as interlaced fields (which H.264 in MP4 says only in its frames).
    public func isInterlaced(_ frame: Frame) -> Bool { Deinterlacer.isInterlaced(frame) }

    /// Whether `frame` is HDR (PQ or HLG).
    public func isHDR(_ frame: Frame) -> Bool { FrameConverter.hdrTransfer(of: frame) != nil }

    /// The cICP code points of `frame` written as 16-bit R'G'B': its primaries and HDR transfer; nil for SDR.
    public func codePoints(of frame: Frame) -> [UInt8]? { FrameConverter.codePoints(of: frame) }
}

extension VideoSource {
    /// The times of the keyframes the container's index lists, in seconds from the first frame;
    /// empty without an index. Counted from the first entry, the stream's first keyframe: an MP4's
    /// index is in decoding time, which runs a constant reordering delay ahead of the times shown.
    /// Read before any frame: it may seek to the start.
    public func indexedKeyframeSeconds() -> [Double] {
        if avformat_index_get_entries_count(stream) <= 1 {
            // Matroska and WebM read their cues at the first seek: until then the index holds the
            // first keyframe alone, and every piece would be drawn to it.
            // Through the one way back to the first packet, which keeps the position known: a
            // bare seek to the first frame left an MPEG-4 Part 2 file in Matroska undecodable.
            isAtStart = false
            try? startOver()
        }
        let count = Int(avformat_index_get_entries_count(stream))
        guard count > 0, let first = avformat_index_get_entry(stream, 0) else { return [] }
        let origin = first.pointee.timestamp
        var times: [Double] = []
        for index in 0..<count {
            guard let entry = avformat_index_get_entry(stream, Int32(index)) else { break }
            if entry.pointee.flags & AVINDEX_KEYFRAME != 0 { times.append(seconds(ticks: entry.pointee.timestamp - origin)) }
        }
        return times
    }
}
