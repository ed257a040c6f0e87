import CFFmpeg
import Imaging
import MediaIO

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
    }

    private let format: FormatContext
    private let streamIndex: Int
    private let stream: UnsafeMutablePointer<AVStream>
    private let decoder: Decoder
    private let timeBase: AVRational
    /// The first frame's timestamp: times count from it.
    private let startTimestamp: Int64
    /// One frame's duration in the stream's time base, when the frame rate is known.
    private let frameDuration: Int64?
    private var hasReadPackets = false

    /// Reads the main video stream of a regular file the tool has open. `threads` 0 decodes with every core.
    public convenience init(file: InputFile, threads: Int = 0) throws {
        try self.init(format: FormatContext(file: file), threads: threads)
    }

    /// Opens media held in memory, as if it were a file.
    public convenience init(bytes: [UInt8], threads: Int = 0) throws {
        try self.init(format: FormatContext(bytes: bytes), threads: threads)
    }

    private init(format: FormatContext, threads: Int) throws {
        self.format = format
        guard let index = format.bestVideoStreamIndex() else { throw VideoError.noVideoStream }
        streamIndex = index
        stream = format.stream(index)
        decoder = try Decoder(stream: stream, threads: threads)
        timeBase = stream.pointee.time_base
        let start = stream.pointee.start_time
        startTimestamp = start == cffmpeg_nopts_value() ? 0 : start
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

    /// The orientation of `frame`: its own display matrix when it has one, else the stream's.
    public func orientation(of frame: Frame) -> (orientation: Orientation, isExact: Bool) {
        frame.displayMatrix.map(Orientation.nearest(toDisplayMatrix:)) ?? streamOrientation
    }

    /// The pixel aspect ratio of `frame` (width over height of one pixel); 1 when unknown.
    public func pixelAspectRatio(of frame: Frame) -> (numerator: Int, denominator: Int) {
        let ratio = av_guess_sample_aspect_ratio(format.pointer, stream, frame.pointer)
        guard ratio.num > 0, ratio.den > 0 else { return (1, 1) }
        return (Int(ratio.num), Int(ratio.den))
    }

    /// Converts `frame` to RGB or RGBA pixels of the given size, in its own colours.
    public func pixels(of frame: Frame, width: Int, height: Int) throws -> PixelBuffer {
        try FrameConverter.pixels(of: frame, width: width, height: height)
    }

    /// The picture shown at `seconds` after the first frame.
    public func frame(atSeconds seconds: Double, mode: SeekMode) throws -> LocatedFrame {
        let target = startTimestamp + ticks(seconds: max(0, seconds))
        var seekTarget = target
        var backoff = ticks(seconds: 1)
        // Some demuxers (MPEG-TS) land after the time asked for: seek again, earlier each time.
        for attempt in 0..<6 {
            let fromStart = seekTarget <= startTimestamp
            try seek(to: fromStart ? beforeStart : seekTarget)
            // Right after a seek to the target, the first keyframe is the one at or before it; after
            // seeking earlier, later keyframes may still come before the target.
            let outcome = try decodeForward(to: target, mode: mode, acceptsLateFirstFrame: fromStart,
                                            takesFirstFrameInTime: mode == .keyframe && attempt == 0)
            if let located = outcome { return located }
            seekTarget = max(startTimestamp, seekTarget - backoff)
            backoff *= 2
        }
        try seek(to: beforeStart)
        if let located = try decodeForward(to: target, mode: mode, acceptsLateFirstFrame: true,
                                           takesFirstFrameInTime: false) { return located }
        throw VideoError.noDecodableFrame(cause: nil)
    }

    /// Demuxers that seek by decoding timestamps (MPEG-TS) put the first keyframe's before its
    /// presentation time: seeking a second before the first frame lands before that keyframe.
    private var beforeStart: Int64 { startTimestamp - ticks(seconds: 1) }

    private func seek(to timestamp: Int64) throws {
        do {
            try format.seek(stream: streamIndex, to: timestamp)
        } catch {
            // A file that cannot seek is still read from the start, if nothing was read yet.
            if hasReadPackets { throw error }
        }
        decoder.flush()
    }

    /// Decodes from the current position to the last frame at or before the target (only keyframes
    /// in keyframe mode). Returns nil when the first frame already lies after the target and
    /// `acceptsLateFirstFrame` is false: the seek landed too late.
    private func decodeForward(to target: Int64, mode: SeekMode, acceptsLateFirstFrame: Bool,
                               takesFirstFrameInTime: Bool) throws -> LocatedFrame? {
        let packet = Packet()
        let incoming = Frame()
        let candidate = Frame()
        var candidateTimestamp: Int64?
        var previousTimestamp: Int64?
        var lastError: String?
        var isDraining = false
        var drainedAtTarget = false
        var rejectedPackets = 0

        while true {
            if !isDraining {
                if format.read(into: packet) {
                    hasReadPackets = true
                    guard packet.streamIndex == streamIndex else { continue }
                    decoder.skipFrame = skipLevel(for: packet, target: target, mode: mode)
                    let code = decoder.send(packet)
                    if code < 0 && code != FFmpegError.tryAgain {
                        // A corrupt packet: go on to the next decodable one, within reason.
                        lastError = FFmpegError("cannot decode", code: code).message
                        rejectedPackets += 1
                        if rejectedPackets > 1000 { break }
                    } else if mode == .exact && isShown(packet, at: target) {
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
                        if !acceptsLateFirstFrame { return nil }
                        throw VideoError.noDecodableFrame(cause: lastError)
                    }
                    let isPastEnd = !drainedAtTarget
                        && (target > timestamp + (frameDuration ?? 0) || (frameDuration == nil && target > timestamp))
                    return LocatedFrame(frame: candidate, seconds: seconds(ticks: timestamp - startTimestamp),
                                        isPastEnd: isPastEnd)
                case .frame:
                    let timestamp = incoming.timestamp ?? previousTimestamp.map { $0 + (frameDuration ?? 1) } ?? target
                    previousTimestamp = timestamp
                    if candidateTimestamp == nil && timestamp > target && !acceptsLateFirstFrame {
                        return nil
                    }
                    if timestamp > target {
                        // The first frame after the target ends the search, unless none came before it.
                        if candidateTimestamp == nil {
                            candidate.take(from: incoming)
                            candidateTimestamp = timestamp
                        }
                        return LocatedFrame(frame: candidate, seconds: seconds(ticks: candidateTimestamp! - startTimestamp),
                                            isPastEnd: false)
                    }
                    candidate.take(from: incoming)
                    candidateTimestamp = timestamp
                    if takesFirstFrameInTime {
                        return LocatedFrame(frame: candidate, seconds: seconds(ticks: timestamp - startTimestamp),
                                            isPastEnd: false)
                    }
                }
            }
            if isDraining && rejectedPackets > 1000 { break }
        }
        throw VideoError.noDecodableFrame(cause: lastError)
    }

    /// When the packet's frame is on screen, in the stream's time base, if its timing is known.
    private func screenTime(of packet: Packet) -> Range<Int64>? {
        guard let pts = packet.presentationTimestamp,
              let duration = packet.duration > 0 ? packet.duration : frameDuration else { return nil }
        return pts..<(pts + duration)
    }

    /// Whether the packet's frame is the one on screen at `target`.
    private func isShown(_ packet: Packet, at target: Int64) -> Bool {
        screenTime(of: packet)?.contains(target) ?? false
    }

    /// Frames that end before the target are never shown: those nothing refers to need no decoding.
    private func skipLevel(for packet: Packet, target: Int64, mode: SeekMode) -> AVDiscard {
        if mode == .keyframe { return AVDISCARD_NONKEY }
        guard let shown = screenTime(of: packet) else { return AVDISCARD_DEFAULT }
        return shown.upperBound <= target ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
    }

    /// Held within ±2^62, so that no time, however far, traps on the way to an integer.
    private func ticks(seconds: Double) -> Int64 {
        let ticks = (seconds * Double(timeBase.den) / Double(timeBase.num)).rounded()
        guard ticks.isFinite else { return ticks < 0 ? -(1 << 62) : 1 << 62 }
        return Int64(max(-4.6e18, min(4.6e18, ticks)))
    }

    private func seconds(ticks: Int64) -> Double {
        Double(ticks) * Double(timeBase.num) / Double(timeBase.den)
    }
}
