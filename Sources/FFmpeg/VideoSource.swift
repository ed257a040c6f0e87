import CFFmpeg
import Imaging
import FileIO

/// The main video stream of a media file, ready to give the picture shown at a time.
public final class VideoSource {
    public enum SeekMode: Sendable {
        /// The frame whose display interval contains the time, decoded forward from the keyframe before it.
        case exact
        /// The keyframe at or before the time: fast, approximate.
        case keyframe
    }

    /// A decoded picture and where it stands.
    public struct LocatedFrame {
        public let frame: Frame
        /// Its presentation time, counted from the stream's first frame.
        public let seconds: Double
        /// The time asked for lies after the last frame: this is the last frame.
        public let isPastEnd: Bool
        /// Frames decoded on the way had errors even from the start of the file: it is damaged,
        /// and the picture may show it.
        public var hasErrors = false
    }

    /// Read again from the start when a seek fails (see `startOver`), so not constant.
    var format: FormatContext
    private let reopen: () throws -> FormatContext
    let streamIndex: Int
    var stream: UnsafeMutablePointer<AVStream>
    let decoder: Decoder
    private let timeBase: AVRational
    /// The first frame's timestamp: times count from it. Learnt by decoding the first frame where
    /// the container's own start cannot be trusted (`startNeedsDecoding`).
    var startTimestamp: Int64
    var startNeedsDecoding: Bool
    /// Packets are timed in decoding order (AVI, raw streams), not when their frames show: they say
    /// nothing of which frame is on screen, so no frame is skipped or drained by their times.
    let packetTimesAreDecodingOrder: Bool
    /// The memory its decoding holds of the run's budget, for as long as this lives.
    private var reservation: MemoryBudget.Reservation?
    /// The frame size the reservation was made for, and the limits it was made under.
    private var reservedPixels: Int
    private let limits: DecodeLimits
    /// Raw streams (MPEG-2 elementary streams and the like) time nothing at all.
    private let hasNoTimestamps: Bool
    /// One frame's duration in the stream's time base, when the frame rate is known.
    let frameDuration: Int64?
    /// Nothing has been read or sought since the input was opened: its first packet comes next.
    var isAtStart = true
    /// The keyframe the last keyframe search chose, to the next keyframe after it (the end of the
    /// stream for the last): every time in this span shows that keyframe in keyframe mode.
    var lastKeyframeSpan: Range<Int64>?

    /// Reads the main video stream of a regular file the tool has open, or its video stream
    /// `videoStream` (counted from 0 among the video streams that are not cover art). `threads` 0
    /// decodes with every core. A frame over `limits` is refused before any decoder allocates it:
    /// by the stream's parameters, and by the decoders themselves for a size no header states.
    public convenience init(file: InputFile, threads: Int = 0, videoStream: Int? = nil, limits: DecodeLimits = DecodeLimits()) throws {
        try self.init(threads: threads, videoStream: videoStream, limits: limits) { try FormatContext(file: file, maxPixels: limits.videoPixels) }
    }

    /// Throws when a stream's first bytes are of no format FFmpeg knows (see `InputFile.randomAccess`).
    public static func recognise(_ start: UnsafeRawBufferPointer) throws {
        try FormatContext.recognise(start)
    }

    /// Opens media held in memory, as if it were a file.
    public convenience init(bytes: [UInt8], threads: Int = 0) throws {
        try self.init(threads: threads, videoStream: nil, limits: DecodeLimits()) { try FormatContext(bytes: bytes) }
    }

    private init(threads: Int, videoStream: Int?, limits: DecodeLimits, open: @escaping () throws -> FormatContext) throws {
        let format = try open()
        self.format = format
        reopen = open
        let chosen: Int?
        if let videoStream {
            let streams = format.videoStreamIndices()
            guard streams.indices.contains(videoStream) else {
                throw VideoError.noSuchVideoStream(asked: videoStream, count: streams.count)
            }
            chosen = streams[videoStream]
        } else {
            chosen = format.bestVideoStreamIndex()
        }
        guard let index = chosen else { throw VideoError.noVideoStream }
        streamIndex = index
        stream = format.stream(index)
        let size = format.frameSize(ofStream: index)
        reservation = try limits.reserveVideoFrame(width: size.width, height: size.height)
        reservedPixels = size.width * size.height
        self.limits = limits
        decoder = try Decoder(stream: stream, threads: threads, maxPixels: limits.videoPixels)
        timeBase = stream.pointee.time_base
        let start = stream.pointee.start_time
        startTimestamp = start == cffmpeg_nopts_value() ? 0 : start
        // AVI and raw streams time packets in decoding order, and the first frame shows after the
        // reordering delay (one frame with B-frames): the container says 0, the first frame says 1.
        let demuxer = format.pointer.pointee.iformat.pointee
        hasNoTimestamps = demuxer.flags & AVFMT_NOTIMESTAMPS != 0
        packetTimesAreDecodingOrder = String(cString: demuxer.name) == "avi" || hasNoTimestamps
        startNeedsDecoding = start == cffmpeg_nopts_value() || packetTimesAreDecodingOrder
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        if rate.num > 0 && rate.den > 0 && timeBase.num > 0 {
            frameDuration = max(1, av_rescale_q(1, AVRational(num: rate.den, den: rate.num), timeBase))
        } else {
            frameDuration = nil
        }
    }

    /// The stream's duration in seconds, or the file's when the stream does not state its own.
    public var durationSeconds: Double? {
        let duration = stream.pointee.duration
        if duration != cffmpeg_nopts_value() && duration > 0 { return seconds(ticks: duration) }
        return format.durationSeconds
    }

    /// The display matrix of the stream, as an orientation, and whether it is exact.
    public var streamOrientation: (orientation: Orientation, isExact: Bool) {
        var size: size_t = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else {
            return (.identity, true)
        }
        let matrix = (0..<9).map { UnsafeRawPointer(data).loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self) }
        return Orientation.nearest(toDisplayMatrix: matrix)
    }

    /// The stream's Dolby Vision profile and base-layer compatibility (0: none, 1: HDR10, 2: SDR,
    /// 4: HLG), from its configuration record; nil for a stream without one.
    public var dolbyVision: (profile: Int, compatibility: Int)? {
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
    private func holdMemory(for frame: Frame, width: Int, height: Int) throws {
        try limits.checkVideoFrame(width: width, height: height)
        let pixels = frame.width * frame.height
        guard pixels > reservedPixels else { return }
        reservation = nil
        reservation = try limits.reserveVideoFrame(width: frame.width, height: frame.height)
        reservedPixels = pixels
    }

    /// Whether `frame` is HDR (PQ or HLG).
    public func isHDR(_ frame: Frame) -> Bool { FrameConverter.hdrTransfer(of: frame) != nil }

    /// The cICP code points of `frame` written as 16-bit R'G'B': its primaries and HDR transfer; nil for SDR.
    public func codePoints(of frame: Frame) -> [UInt8]? { FrameConverter.codePoints(of: frame) }

    /// The picture shown at `seconds` after the first frame: the last frame (or keyframe) whose
    /// time is at or before it.
    public func frame(atSeconds seconds: Double, mode: SeekMode) throws -> LocatedFrame {
        if startNeedsDecoding { try learnStart() }
        let target = startTimestamp + ticks(atOrBefore: max(0, seconds))
        if mode == .keyframe {
            if let located = try search(for: target, keyframeForward) { return located }
            // Keyframe packets without their own presentation time (AVI, MPEG program streams, raw
            // streams): only decoding tells when each frame shows.
        }
        if let located = try search(for: target, { try self.decodeForward(to: $0, acceptsLateFirstFrame: $1, keyframesOnly: mode == .keyframe) }) {
            return located
        }
        throw VideoError.noDecodableFrame(cause: nil)
    }

    /// What a search from the current position found.
    private enum SearchOutcome {
        case found(LocatedFrame)
        /// The first candidate already lies after the target: the seek landed too late.
        case landedLate
        /// Packets do not tell enough: decode instead.
        case needsDecoding
    }

    /// Seeks to the target and runs `searchForward` from there, earlier and earlier while it lands
    /// late (some demuxers, MPEG-TS, land after the time asked for), and from the start when the
    /// demuxer cannot seek or the time is the first frame's. Nil when `searchForward` needs decoding.
    private func search(for target: Int64, _ searchForward: (Int64, Bool) throws -> SearchOutcome) throws -> LocatedFrame? {
        func run(_ fromStart: Bool) throws -> LocatedFrame?? {
            switch try searchForward(target, fromStart) {
            case .found(let located): return .some(located)
            case .needsDecoding: return .some(nil)
            case .landedLate: return nil
            }
        }
        // The first frame needs no seek at all, only a start.
        if target <= startTimestamp {
            try startOver()
            if let outcome = try run(true) { return outcome }
            throw VideoError.noDecodableFrame(cause: nil)
        }
        var seekTarget = target
        var backoff = ticks(atOrBefore: 1)
        for _ in 0..<6 {
            let fromStart: Bool
            if seekTarget <= startTimestamp {
                try startOver()
                fromStart = true
            } else {
                // A demuxer that cannot seek (some AVI, FLV, Matroska without cues) is read from the start.
                fromStart = try !seek(to: seekTarget)
            }
            if let outcome = try run(fromStart) { return outcome }
            if fromStart { throw VideoError.noDecodableFrame(cause: nil) }
            seekTarget = max(startTimestamp, seekTarget - backoff)
            backoff *= 2
        }
        try startOver()
        if let outcome = try run(true) { return outcome }
        throw VideoError.noDecodableFrame(cause: nil)
    }

    /// The first frame's own timestamp, decoded from the start.
    func learnStart() throws {
        startNeedsDecoding = false
        try startOver()
        let packet = Packet()
        let frame = Frame()
        var counted = 0
        while try format.read(into: packet), counted < 1000 {
            isAtStart = false
            guard packet.streamIndex == streamIndex, decoder.send(packet) >= 0 else { continue }
            counted += 1
            if case .frame = try? decoder.receive(into: frame) {
                if let timestamp = frame.timestamp { startTimestamp = timestamp }
                break
            }
        }
        decoder.flush()
    }

    /// Demuxers that seek by decoding timestamps (MPEG-TS) put the first keyframe's before its
    /// presentation time: seeking a second before the first frame lands before that keyframe.
    private var beforeStart: Int64 { startTimestamp - ticks(atOrBefore: 1) }

    /// Moves to the keyframe at or before `timestamp`. When the demuxer cannot (its result is
    /// checked: a failed seek may leave the position anywhere), the input is read again from its
    /// start and this returns false.
    func seek(to timestamp: Int64) throws -> Bool {
        decoder.flush()
        do {
            try format.seek(stream: streamIndex, to: timestamp)
            isAtStart = false
            return true
        } catch {
            try reopenAtStart()
            return false
        }
    }

    /// Goes back to the first packet: nothing to do right after opening; else a seek before the
    /// first frame, or, where the demuxer cannot seek, the input opened again.
    func startOver() throws {
        decoder.flush()
        if isAtStart { return }
        if (try? format.seek(stream: streamIndex, to: beforeStart)) != nil { return }
        try reopenAtStart()
    }

    func reopenAtStart() throws {
        format = try reopen()
        stream = format.stream(streamIndex)
        isAtStart = true
    }

    /// Reads packets from the current position to the first keyframe after the target, and
    /// decodes only the last keyframe at or before it: demuxers that seek early (MPEG-PS, AVI)
    /// hand back an earlier GOP's keyframe first. `.landedLate` when the first keyframe already lies
    /// after the target and `acceptsLateFirstKeyframe` is false; `.needsDecoding` when a keyframe
    /// packet has no presentation time or its frame is no intra frame.
    private func keyframeForward(to target: Int64, acceptsLateFirstKeyframe: Bool) throws -> SearchOutcome {
        let packet = Packet()
        let chosen = Packet()
        var chosenTime: Int64?
        var nextKeyframeTime: Int64?
        var streamEnd: Int64?
        var reachedEnd = true
        while try format.read(into: packet) {
            isAtStart = false
            guard packet.streamIndex == streamIndex else { continue }
            // The end of the stream, from the presentation times: decoding times lag behind them.
            if let time = packet.presentationTimestamp {
                streamEnd = max(streamEnd ?? time, time + (packet.duration > 0 ? packet.duration : frameDuration ?? 1))
            }
            guard packet.isKeyframe else { continue }
            guard let time = packet.presentationTimestamp else { return .needsDecoding }
            if time <= target {
                chosen.take(from: packet)
                chosenTime = time
                continue
            }
            if chosenTime == nil {
                guard acceptsLateFirstKeyframe else { return .landedLate }
                chosen.take(from: packet)
                chosenTime = time
                // The next keyframe is still to come: this one's span is unknown.
                reachedEnd = false
                break
            }
            nextKeyframeTime = time
            reachedEnd = false
            break
        }
        guard let chosenTime else {
            // Landed after the last keyframe: seek again, earlier.
            if !acceptsLateFirstKeyframe { return .landedLate }
            throw VideoError.noDecodableFrame(cause: format.readError?.message)
        }
        decoder.flush()
        decoder.skipFrame = AVDISCARD_DEFAULT
        let frame = Frame()
        let code = decoder.send(chosen)
        if code < 0 { throw VideoError.noDecodableFrame(cause: FFmpegError("cannot decode", code: code).message) }
        decoder.sendEndOfStream()
        while true {
            switch try decoder.receive(into: frame) {
            case .frame:
                // A keyframe that does not decode on its own is no sync point: decode the way there.
                if frame.hasErrors || !frame.isKeyframe { return .needsDecoding }
                lastKeyframeSpan = nextKeyframeTime.map { chosenTime..<$0 } ?? (reachedEnd ? chosenTime..<Int64.max : nil)
                let isPastEnd = reachedEnd && streamEnd.map { target >= $0 } == true
                return .found(LocatedFrame(frame: frame, seconds: seconds(ticks: chosenTime - startTimestamp), isPastEnd: isPastEnd))
            case .needsInput, .finished:
                throw VideoError.noDecodableFrame(cause: nil)
            }
        }
    }

    /// Decodes from the current position to the last frame at or before the target (the last
    /// keyframe with `keyframesOnly`, found by decoding every frame up to the next keyframe, where
    /// packets do not say when keyframes show). `.landedLate` when the first frame already lies
    /// after the target and `acceptsLateFirstFrame` is false.
    private func decodeForward(to target: Int64, acceptsLateFirstFrame: Bool, keyframesOnly: Bool) throws -> SearchOutcome {
        let packet = Packet()
        let incoming = Frame()
        let candidate = Frame()
        var candidateTimestamp: Int64?
        var previousTimestamp: Int64?
        var latestTimestamp: Int64?
        // A frame with errors after a seek means the keyframe sought to was no sync point (some
        // files mark frames that are not): every frame after it may be garbage, so the search
        // starts again from an earlier keyframe, and from the start of the file at the last.
        var sawErrors = false
        var syncTimestamp: Int64?
        // The packet a seek landed on must give an intra frame; where the index calls a frame a
        // keyframe that is not one, MPEG-4 and MPEG-2 decoders fill the missing pictures with grey
        // and say nothing.
        var landingPacket: Int64?
        var lastError: String?
        var isDraining = false
        var drainedAtTarget = false
        var rejectedPackets = 0
        // After a seek, nothing before the first keyframe packet can be decoded cleanly: such packets
        // are passed over unread by the decoder. Demuxers that seek by time alone (MPEG-TS) land
        // anywhere; a clip whose last keyframe is long before the time asked for decoded every packet
        // to the end at each of the search's steps back (10 s, where decoding the file took 1.8).
        var awaitsKeyframe = !acceptsLateFirstFrame

        while true {
            if !isDraining {
                if try format.read(into: packet) {
                    isAtStart = false
                    guard packet.streamIndex == streamIndex else { continue }
                    if awaitsKeyframe {
                        guard packet.isKeyframe else { continue }
                        awaitsKeyframe = false
                        // The first keyframe shows after the time asked for: the seek landed late,
                        // known without decoding anything (where packets are timed as shown).
                        if !packetTimesAreDecodingOrder, let shown = packet.presentationTimestamp, shown > target {
                            return .landedLate
                        }
                    }
                    if landingPacket == nil { landingPacket = packet.decodingTimestamp ?? Int64.min }
                    decoder.skipFrame = keyframesOnly ? AVDISCARD_DEFAULT : skipLevel(for: packet, target: target)
                    let code = decoder.send(packet)
                    if code < 0 && code != FFmpegError.tryAgain {
                        // A corrupt packet: go on to the next decodable one, within reason.
                        lastError = FFmpegError("cannot decode", code: code).message
                        rejectedPackets += 1
                        if rejectedPackets > 1000 { break }
                    } else if !keyframesOnly && isShown(packet, at: target) {
                        // Every packet the target's frame refers to came before it: drain now rather
                        // than decode the frames that frame threading would otherwise wait for.
                        decoder.sendEndOfStream()
                        isDraining = true
                        drainedAtTarget = true
                    }
                } else {
                    if let readError = format.readError { lastError = readError.message }
                    decoder.sendEndOfStream()
                    isDraining = true
                }
            }
            receiving: while true {
                let received: Decoder.Received
                do {
                    received = try decoder.receive(into: incoming)
                } catch {
                    lastError = error.message
                    rejectedPackets += 1
                    if rejectedPackets > 1000 { break }
                    continue
                }
                switch received {
                case .needsInput:
                    break receiving
                case .finished:
                    guard let timestamp = candidateTimestamp else {
                        // Seeking landed where no keyframe follows: try again from earlier.
                        if !acceptsLateFirstFrame { return .landedLate }
                        throw VideoError.noDecodableFrame(cause: lastError)
                    }
                    if sawErrors && !acceptsLateFirstFrame { return .landedLate }
                    let last = latestTimestamp ?? timestamp
                    let isPastEnd = !drainedAtTarget
                        && (target > last + (frameDuration ?? 0) || (frameDuration == nil && target > last))
                    var located = LocatedFrame(frame: candidate, seconds: seconds(ticks: timestamp - startTimestamp),
                                               isPastEnd: isPastEnd)
                    located.hasErrors = sawErrors
                    return .found(located)
                case .frame:
                    // A frame without a timestamp follows the one before; the first, read from the
                    // start, is the first frame; the first after a seek in a raw stream (which has
                    // none at all) is taken for the target. In AVI, whose other frames have times,
                    // one without says nothing of when it shows (the last keyframe, stored before
                    // the B-frames it ends, showed as the frame asked for): search from earlier.
                    if incoming.timestamp == nil && previousTimestamp == nil && !acceptsLateFirstFrame
                        && packetTimesAreDecodingOrder && !hasNoTimestamps {
                        return .landedLate
                    }
                    let timestamp = incoming.timestamp ?? previousTimestamp.map { $0 + (frameDuration ?? 1) }
                        ?? (acceptsLateFirstFrame ? startTimestamp : target)
                    previousTimestamp = timestamp
                    latestTimestamp = max(latestTimestamp ?? timestamp, timestamp)
                    // Leading pictures of an open GOP show before its keyframe and refer to the GOP
                    // before: their errors say nothing of the frames after the keyframe.
                    if syncTimestamp == nil && incoming.isKeyframe { syncTimestamp = timestamp }
                    if incoming.hasErrors, let syncTimestamp, timestamp >= syncTimestamp { sawErrors = true }
                    if !acceptsLateFirstFrame, !incoming.isKeyframe, let landing = incoming.packetDecodingTimestamp,
                       landing == landingPacket {
                        return .landedLate
                    }
                    if keyframesOnly && !incoming.isKeyframe { continue }
                    if candidateTimestamp == nil && timestamp > target && !acceptsLateFirstFrame {
                        return .landedLate
                    }
                    if timestamp > target {
                        // The first frame after the target ends the search, unless none came before it.
                        if candidateTimestamp == nil {
                            candidate.take(from: incoming)
                            candidateTimestamp = timestamp
                        }
                        if sawErrors && !acceptsLateFirstFrame { return .landedLate }
                        var located = LocatedFrame(frame: candidate, seconds: seconds(ticks: candidateTimestamp! - startTimestamp),
                                                   isPastEnd: false)
                        located.hasErrors = sawErrors
                        return .found(located)
                    }
                    candidate.take(from: incoming)
                    candidateTimestamp = timestamp
                }
            }
            if isDraining && rejectedPackets > 1000 { break }
        }
        throw VideoError.noDecodableFrame(cause: lastError)
    }

    /// When the packet's frame is on screen, in the stream's time base, if its timing is known.
    private func screenTime(of packet: Packet) -> Range<Int64>? {
        guard !packetTimesAreDecodingOrder, let pts = packet.presentationTimestamp,
              let duration = packet.duration > 0 ? packet.duration : frameDuration else { return nil }
        return pts..<(pts + duration)
    }

    /// Whether the packet's frame is the one on screen at `target`.
    private func isShown(_ packet: Packet, at target: Int64) -> Bool {
        screenTime(of: packet)?.contains(target) ?? false
    }

    /// Frames that end before the target are never shown: those nothing refers to need no decoding.
    func skipLevel(for packet: Packet, target: Int64) -> AVDiscard {
        guard let shown = screenTime(of: packet) else { return AVDISCARD_DEFAULT }
        return shown.upperBound <= target ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
    }

    /// The tick at or before `seconds`: a time in the second half of a frame is still that frame's
    /// (rounding to the nearest tick gave the next frame where a tick is a frame: AVI, 3GP, Ogg).
    /// A product a hair below a whole tick (0.29 s at 1/100) is that tick. Held within ±2^62, so
    /// that no time, however far, traps on the way to an integer.
    func ticks(atOrBefore seconds: Double) -> Int64 {
        let exact = seconds * Double(timeBase.den) / Double(timeBase.num)
        let nearest = exact.rounded()
        let ticks = abs(exact - nearest) < 1e-6 * max(1, abs(exact)) ? nearest : exact.rounded(.down)
        guard ticks.isFinite else { return ticks < 0 ? -(1 << 62) : 1 << 62 }
        return Int64(max(-4.6e18, min(4.6e18, ticks)))
    }

    func seconds(ticks: Int64) -> Double {
        Double(ticks) * Double(timeBase.num) / Double(timeBase.den)
    }
}
