import CFFmpeg
import Imaging
import FileIO

/// The main video stream of a media file, ready to give the picture shown at a time.
public final class VideoSource {
    public enum SeekMode: Sendable, Codable {
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
        /// The frames at the time asked for did not decode (the file is damaged there): this is
        /// the first after them that did.
        public var followsUndecodableFrames = false
    }

    /// Read again from the start when a seek fails (see `startOver`), so not constant.
    var format: FormatContext
    let reopen: () throws -> FormatContext
    let streamIndex: Int
    var stream: UnsafeMutablePointer<AVStream>
    let decoder: Decoder
    let timeBase: AVRational
    /// The first frame's timestamp: times count from it. Learnt by decoding the first frame where
    /// the container's own start cannot be trusted (`startNeedsDecoding`).
    var startTimestamp: Int64
    var startNeedsDecoding: Bool
    /// Packets are timed in decoding order (AVI, raw streams), not when their frames show: they say
    /// nothing of which frame is on screen, so no frame is skipped or drained by their times.
    let packetTimesAreDecodingOrder: Bool
    /// The memory its decoding holds of the run's budget, for as long as this lives.
    var reservation: MemoryBudget.Reservation?

    /// Gives back what the frame holds of the budget, for a reader about to be replaced by another
    /// of the same file: opened while this one held it, the two held two frames, and a video whose
    /// two frames passed the memory limit waited for itself until it was refused.
    public func giveBackFrameMemory() {
        reservation = nil
        reservedPixels = 0
    }
    /// Gives back what the frame holds of the budget, for a caller that reserves it again at once
    /// with more beside it (a web video's encoder): waiting for the more while holding the frame,
    /// two jobs each held what the other waited for (two 4K clips at 600M, each of which fits
    /// alone, waited until one was refused). The frame's size stays counted as reserved: the
    /// caller's reservation holds it. The bytes given back.
    public func handOverFrameMemory() -> Int {
        let bytes = decodingBytes
        reservation = nil
        return bytes
    }

    /// The frame size the reservation was made for, and the limits it was made under.
    var reservedPixels: Int
    let limits: DecodeLimits
    /// Raw streams (MPEG-2 elementary streams and the like) time nothing at all.
    let hasNoTimestamps: Bool
    /// What decoding holds of the run's memory (`DecodeLimits.reserveVideoFrame`), for a job that
    /// holds more beside it to count.
    public var decodingBytes: Int { reservedPixels * DecodeLimits.videoBytesPerPixel }
    /// All this reader holds of the run's budget: its frames' and its container's index.
    public var heldBytes: Int { decodingBytes + format.indexBytes }
    /// A GIF or another picture FFmpeg reads (`MediaFacts.isPicture`): shown by its first frame.
    public let isPicture: Bool
    /// One frame's duration in the stream's time base, when the frame rate is known.
    let frameDuration: Int64?
    /// A frame was made into pixels (`pixels(of:)`): its size, not the header's, is what is held.
    var hasShownAFrame = false
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
        try self.init(threads: threads, videoStream: videoStream, limits: limits) { try FormatContext(file: file, limits: limits) }
    }

    /// Throws when a stream's first bytes are of no format FFmpeg knows (see `InputFile.randomAccess`).
    public static func recognise(_ start: UnsafeRawBufferPointer) throws {
        try FormatContext.recognise(start)
    }

    /// The name of the demuxer FFmpeg would open a file of these first bytes with; nil for none.
    public static func demuxer(forStart start: UnsafeRawBufferPointer) -> String? {
        FormatContext.demuxer(forStart: start)
    }

    /// Opens media held in memory, as if it were a file.
    public convenience init(bytes: [UInt8], threads: Int = 0) throws {
        try self.init(threads: threads, videoStream: nil, limits: DecodeLimits()) { try FormatContext(bytes: bytes) }
    }

    /// A second reader of this file's stream, with a decoder of its own, so that work at many
    /// times can be split between threads. Its frame is reserved from the same limits, and it is
    /// refused where they have no room for it beside this one (its frame and index as much again):
    /// a reader opened where both did not fit waited for this one's memory, and a job holding
    /// both waited for itself until it was refused.
    public func sibling(threads: Int) throws -> VideoSource {
        // Only once this reader has shown a frame is the frame's size known: a header may say less.
        guard hasShownAFrame else { throw VideoError.noDecodableFrame(cause: "a second reader is opened once the first has shown a frame") }
        let held = decodingBytes + format.indexBytes
        if held > limits.maxMemory - held {
            let size = format.frameSize(ofStream: streamIndex)
            let (both, overflow) = held.multipliedReportingOverflow(by: 2)
            throw DecodeLimitError.tooMuchMemory(needed: overflow ? Int.max : both, limit: limits.maxMemory, width: size.width, height: size.height)
        }
        return try VideoSource(threads: threads, videoStream: nil, limits: limits, open: reopen, streamIndex: streamIndex)
    }

    /// `streamIndex`: the stream among all the file's, as a sibling has it; else `videoStream`.
    private init(threads: Int, videoStream: Int?, limits: DecodeLimits, open: @escaping () throws -> FormatContext,
                 streamIndex absoluteIndex: Int? = nil) throws {
        let format = try open()
        self.format = format
        reopen = open
        let chosen: Int?
        if let absoluteIndex {
            chosen = absoluteIndex
        } else if let videoStream {
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
        reservation = try limits.reserveVideoFrame(width: size.width, height: size.height, beside: format.indexBytes)
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
        isPicture = MediaFacts.isPictureDemuxer(String(cString: demuxer.name))
        startNeedsDecoding = start == cffmpeg_nopts_value() || packetTimesAreDecodingOrder
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        if rate.num > 0 && rate.den > 0 && timeBase.num > 0 {
            frameDuration = max(1, av_rescale_q(1, AVRational(num: rate.den, den: rate.num), timeBase))
        } else {
            frameDuration = nil
        }
    }
}
