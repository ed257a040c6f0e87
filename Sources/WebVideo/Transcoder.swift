import FFmpeg
import FileIO
import Imaging
import MediaFormats

/// A web video: what was made.
public struct WebVideo: Sendable {
    public let width: Int
    public let height: Int
    public let frames: Int
    public let seconds: Double
    public let bytes: Int
    /// The source's sound codec, where the video has sound (now AAC).
    public let soundFrom: String?
    /// RFC 6381's names of its codecs, as a `<source type>` gives them: "avc1.64001f,mp4a.40.2".
    public let codecs: String
    /// Written as fragments (to a pipe): its `moov` first as well.
    public let isFragmented: Bool
    /// The video ends well before the length its stream states (a file cut short): what could
    /// be decoded was made, with a warning.
    public let isCutShort: Bool
    public let warnings: [String]
}

/// Makes the video every browser plays from any video FFmpeg reads: H.264 High 8-bit 4:2:0 in
/// BT.709 SDR with AAC sound, `moov` first. Each frame is made as a thumbnail is (upright by its
/// display matrix, square pixels at display aspect, deinterlaced, HDR tone mapped) inside
/// `maxWidth` x `maxHeight`, and keeps its own time (a variable frame rate stays variable); the
/// sound starts where the file says it does beside the first frame, and ends with the last.
public struct Transcoder: Sendable {
    public let options: TranscodeOptions

    public init(options: TranscodeOptions) {
        self.options = options
    }

    /// Decodes `file` once and writes its web video to `descriptor` (`target` names it in errors).
    /// `progress` is told how far it has got, after each frame.
    /// `video`: the file's video opened already (`opening(_:)`), by a job that makes more of it.
    /// `alongside`: what other jobs take from the same pass (`VideoSource.everyFrame`).
    public func transcode(_ file: InputFile, video: VideoSource? = nil, alongside: [FramesAlongside] = [], to descriptor: Int32,
                          target: String, progress: (JobProgress) -> Void = { _ in }) throws -> WebVideo {
        let made = try encode(file, video: video, alongside: alongside, progress: progress, segmentSeconds: nil,
                              sizes: { _, fitted in [fitted] }) { _, _ in (descriptor, target) }
        let writer = made.renditions[0].writer
        if !writer.isFragmented { try MP4Faststart.moveMovieFirst(in: descriptor, size: made.renditions[0].bytes, target: target) }
        let geometry = made.renditions[0].geometry
        return WebVideo(width: geometry.outputWidth, height: geometry.outputHeight, frames: writer.frameCount, seconds: made.seconds,
                        bytes: made.renditions[0].bytes, soundFrom: made.soundFrom, codecs: writer.codecs, isFragmented: writer.isFragmented,
                        isCutShort: made.isCutShort, warnings: made.warnings)
    }

    /// The video of `file` as the transcoder reads it; refused for a picture.
    public func opening(_ file: InputFile) throws -> VideoSource {
        if try InputKind.of(file).isPicture { throw TranscodeError.picture }
        let video = try VideoSource(file: file, threads: options.threads, videoStream: options.videoStream, limits: options.limits)
        if video.isPicture { throw TranscodeError.picture }
        return video
    }

    /// A web video's renditions from one decode, as `encode` made them.
    struct Encoded {
        struct Rendition {
            let geometry: DisplayGeometry
            let writer: WebMP4Writer
            let bytes: Int
        }
        let renditions: [Rendition]
        let seconds: Double
        let soundFrom: String?
        let isCutShort: Bool
        let warnings: [String]
    }

    /// Decodes `file` once and encodes each of its frames at every size `sizes` gives for the
    /// upright picture as shown and as fitted to the options' box, each side even (the first the
    /// largest), each to the
    /// descriptor `open` gives for its index and size. With `segmentSeconds`, each rendition is
    /// segmented, a keyframe in all of them at the first frame that many seconds after the last.
    func encode(_ file: InputFile, video opened: VideoSource? = nil, alongside: [FramesAlongside] = [],
                progress: (JobProgress) -> Void, segmentSeconds: Double?,
                sizes: (_ natural: DisplayGeometry, _ fitted: DisplayGeometry) -> [DisplayGeometry],
                open: (Int, DisplayGeometry) throws -> (descriptor: Int32, target: String)) throws -> Encoded {
        let video = try opened ?? opening(file)
        var warnings: [String] = []
        var sound: AudioSource?
        var soundFailed = false
        if options.keepsSound {
            do {
                sound = try AudioSource.open(file: file, limits: options.limits)
            } catch {
                soundFailed = true
                warnings.append("the sound track cannot be read (\(error)): the video is silent")
            }
        }
        // Known only where the sound was looked for and none was there.
        let hasNoSoundTrack = options.keepsSound && sound == nil && !soundFailed
        var renditions: [Rendition] = []
        // Held until the video is written.
        var encoderMemory: MemoryBudget.Reservation?
        defer { withExtendedLifetime(encoderMemory) {} }
        var resampler: LinearResampler?
        var soundOffset: Double?
        var lastSeconds = 0.0
        var keptSlot: Double?
        var lastKeyframe: Double?
        var damaged = false
        var framesBack = 0
        let colourWarning = video.colourWarning
        // The length the file states, for the progress shown (a claim, and no limit).
        let statedLength = video.durationSeconds.flatMap { $0.isFinite && $0 > 0 ? min($0, options.maxSeconds) : nil }
        try video.everyFrame(alongside: alongside, passedOver: { framesBack += 1 }) { located in
            if located.hasErrors { damaged = true }
            // Checked before anything is made of its time (a frame at 1e15 s trapped a conversion).
            guard located.seconds.isFinite, located.seconds <= options.maxSeconds else { throw TranscodeError.tooLong(limit: options.maxSeconds) }
            // At most `mostFramesPerSecond`: a few bytes of H.264 can hold a thousand still frames a
            // second, each of which costs the encoder as much as any (2000 frames of 4K in 58 KB
            // took 161 s). Each frame falls in the nearest of 120 slots a second, and a slot takes
            // one frame: a 120 fps video's frames, 8 and 9 ms apart in a millisecond time base,
            // are all kept (comparing each gap with 1/120 s kept 64 a second), a 1000 fps one's 120.
            let slot = (located.seconds * TranscodeOptions.mostFramesPerSecond).rounded()
            if let keptSlot, slot <= keptSlot { return true }
            keptSlot = slot
            if renditions.isEmpty {
                renditions = try makeRenditions(for: located.frame, of: video, sound: sound, sizes: sizes, segmented: segmentSeconds != nil,
                                                resampler: &resampler, memory: &encoderMemory, warnings: &warnings, open: open)
            }
            let keyframe = segmentSeconds.map { segment in lastKeyframe.map { located.seconds >= $0 + segment } ?? true } ?? false
            if keyframe { lastKeyframe = located.seconds }
            for rendition in renditions {
                try rendition.add(located.frame, of: video, seconds: located.seconds, keyframe: keyframe, options: options)
            }
            lastSeconds = located.seconds
            progress(JobProgress(frames: renditions[0].writer.frameCount, milliseconds: Self.milliseconds(located.seconds),
                                 totalMilliseconds: statedLength.map(Self.milliseconds).flatMap { $0 > 0 ? $0 : nil }))
            // The sound up to a little past this frame, so that the muxer interleaves as it goes.
            if let source = sound {
                try feedSound(from: source, to: renditions.map(\.writer), until: located.seconds + 0.5, videoStart: video.startSeconds,
                              offset: &soundOffset, resampler: &resampler, warnings: &warnings, silenced: &sound)
            }
            for rendition in renditions { try rendition.writer.encodeAudio(through: located.seconds) }
            return true
        }
        guard !renditions.isEmpty else { throw VideoError.noDecodableFrame(cause: nil) }
        let endSeconds = lastSeconds + (video.frameSeconds ?? 0)
        if let source = sound {
            try feedSound(from: source, to: renditions.map(\.writer), until: endSeconds, videoStart: video.startSeconds,
                          offset: &soundOffset, resampler: &resampler, warnings: &warnings, silenced: &sound)
        }
        // Where the sound ends, if within a second of the video's end: a file cut short ends both,
        // where a video track shorter than the file's sound is no cut.
        let soundEnd = sound.flatMap { Self.secondsLeft(in: $0) }.map { renditions[0].writer.audioSeconds + $0 }
        let finished = try renditions.map { Encoded.Rendition(geometry: $0.geometry, writer: $0.writer,
                                                              bytes: try $0.writer.finish(endSeconds: endSeconds)) }
        if damaged { warnings.append("frames of the video are damaged: the web video shows them as decoded") }
        // Frames timed at or before one shown ahead of them (a stream joined to another, whose
        // clock starts again): passed over, as a video's times only go forward, and said.
        if framesBack > 0 {
            warnings.append("\(framesBack) frames timed at or before frames shown ahead of them (a stream joined to another, "
                            + "whose clock starts again?) were passed over: the web video has its frames in time order only")
        }
        // A file cut short (an upload that stopped) decodes to its last whole frame without a
        // word from FFmpeg: what was decodable is made, and said to be short of its stated length.
        // The stream's own length; the file's where the stream states none (Matroska's) and the
        // file has no sound, whose length the file's may be, or a sound that ends with the video
        // (a Matroska file with sound cut in half said nothing).
        let fileLength = hasNoSoundTrack || soundEnd != nil ? video.durationSeconds : nil
        let stated = (video.streamDurationSeconds ?? fileLength).flatMap { $0.isFinite ? $0 : nil }
        // Against the file's length, the later of the pictures' and the sound's ends (a sound
        // half a second longer than the pictures makes the file's length).
        let reached = video.streamDurationSeconds == nil ? max(endSeconds, soundEnd ?? 0) : endSeconds
        let isCutShort = stated.map { reached < $0 - max(0.25, 2 * (video.frameSeconds ?? 0)) } ?? false
        if isCutShort, let stated {
            warnings.append("the video ends at \(Self.tenths(endSeconds)) s of the \(Self.tenths(stated)) s its file states: "
                            + "the file is cut short or damaged there, and the web video is what could be decoded")
        }
        if let colourWarning { warnings.append(colourWarning) }
        return Encoded(renditions: finished, seconds: (endSeconds * 1000).rounded() / 1000, soundFrom: sound?.codecName,
                       isCutShort: isCutShort, warnings: warnings)
    }

    /// One size a video is encoded at: its writer, and the scaler that makes its pictures.
    final class Rendition {
        let geometry: DisplayGeometry
        let writer: WebMP4Writer
        /// SDR frames in BT.709 go to H.264's planes without RGB between (the others through RGB).
        private var scaler: YCbCr420Scaler?

        init(geometry: DisplayGeometry, writer: WebMP4Writer) {
            self.geometry = geometry
            self.writer = writer
        }

        func add(_ frame: Frame, of video: VideoSource, seconds: Double, keyframe: Bool, options: TranscodeOptions) throws {
            if let planes = try video.uprightYCbCr420(of: frame, geometry, scaler: &scaler, deinterlaces: options.deinterlaces,
                                                       threads: options.threads) {
                try writer.addVideo(planes, seconds: seconds, keyframe: keyframe)
            } else {
                let picture = try video.uprightPixels(of: frame, geometry, deinterlaces: options.deinterlaces, threads: options.threads)
                try picture.bytes.withUnsafeBytes { try writer.addVideo(rgb: $0, channels: picture.channels, seconds: seconds, keyframe: keyframe) }
            }
        }
    }

    /// The renditions of a video whose first frame is `frame`, their encoders' memory reserved.
    private func makeRenditions(for frame: Frame, of video: VideoSource, sound: AudioSource?,
                                sizes: (_ natural: DisplayGeometry, _ fitted: DisplayGeometry) -> [DisplayGeometry],
                                segmented: Bool, resampler: inout LinearResampler?, memory: inout MemoryBudget.Reservation?,
                                warnings: inout [String], open: (Int, DisplayGeometry) throws -> (descriptor: Int32, target: String))
        throws -> [Rendition] {
        let (natural, warning) = video.display(of: frame, upright: options.appliesOrientation)
        if let warning { warnings.append(warning) }
        // H.264 codes at most 8192 a side: a wider box (or a wide pixel aspect) is fitted to it.
        var box = (width: min(options.maxWidth ?? 8192, 8192), height: min(options.maxHeight ?? 8192, 8192))
        if let side = options.maxShorterSide {
            if natural.outputWidth >= natural.outputHeight { box.height = min(box.height, side) } else { box.width = min(box.width, side) }
        }
        let larger = natural.outputWidth > box.width || natural.outputHeight > box.height
        let fitted = larger ? video.display(of: frame, upright: options.appliesOrientation, maxWidth: box.width,
                                            maxHeight: box.height).geometry : natural
        let geometries = sizes(natural, fitted.evenSided)
        let audio = sound.map { source in
            let rate = WebMP4Writer.aacSampleRates.contains(source.sampleRate) ? source.sampleRate : 48000
            if rate != source.sampleRate { resampler = LinearResampler(from: source.sampleRate, to: rate) }
            return WebMP4Writer.Audio(sampleRate: rate, channels: source.channels)
        }
        // x264's memory (its lookahead, references and frame threads' pictures) from the run's
        // budget, as a decoder's frames are: two 8192x1080 videos took 768 MiB at --max-memory
        // 256M before (the eighth red team's).
        let needed = geometries.reduce(0) { $0 + WebMP4Writer.encoderMemory(width: $1.outputWidth, height: $1.outputHeight, preset: options.preset) }
        // Beside what this job holds already, or it would wait for itself.
        let held = video.heldBytes + (sound?.heldBytes ?? 0)
        let (width, height) = (geometries[0].outputWidth, geometries[0].outputHeight)
        if needed > options.limits.maxMemory - held {
            throw TranscodeError.encoderOverMemory(needed: needed, held: held, limit: options.limits.maxMemory, width: width,
                                                   height: height, preset: options.preset, renditions: geometries.count)
        }
        // With the decoder's frame, as one reservation, so that nothing is held while it waits.
        memory = try options.limits.reserve(needed + video.handOverFrameMemory(), width: width, height: height)
        return try geometries.enumerated().map { index, geometry in
            let (descriptor, target) = try open(index, geometry)
            let writer = try WebMP4Writer(descriptor: descriptor, target: target, video: .init(
                width: geometry.outputWidth, height: geometry.outputHeight, preset: options.preset, crf: options.crf,
                // The rate the frames kept run at, at most: x264's level follows it (a 1000 fps
                // claim made a 640x360 rendition level 5.1, which phones may refuse).
                fps: min(video.frameSeconds.map { 1 / $0 } ?? 30, TranscodeOptions.mostFramesPerSecond), threads: options.threads,
                segmented: segmented),
                audio: audio, creationTime: video.creationTimeTag)
            return Rendition(geometry: geometry, writer: writer)
        }
    }

    /// The seconds of sound `source` has left after what was read, if under one (what is read
    /// is let go: it is past the video's end); nil for more, or a sound that fails.
    private static func secondsLeft(in source: AudioSource) -> Double? {
        var samples = 0
        while samples < source.sampleRate {
            let block: [[Float]]?
            do { block = try source.nextBlock() } catch { return nil }
            guard let block else { return Double(samples) / Double(max(1, source.sampleRate)) }
            samples += max(1, block.first?.count ?? 0)
        }
        return nil
    }

    private static func tenths(_ seconds: Double) -> String { String((min(seconds, 1e12) * 10).rounded() / 10) }

    /// Seconds (finite, not negative) as whole milliseconds, within what an `Int` holds however
    /// large a `--max-duration` let them be.
    private static func milliseconds(_ seconds: Double) -> Int { Int(min(max(seconds, 0), 1e12) * 1000) }

    /// Hands `writers` (each alike) the sound until `seconds` (on the video's clock, its first
    /// frame at 0): silence first where the sound starts after the first frame, its start cut
    /// where it starts before. A sound track that fails part way is ended there, with a warning.
    private func feedSound(from source: AudioSource, to writers: [WebMP4Writer], until seconds: Double, videoStart: Double,
                           offset: inout Double?, resampler: inout LinearResampler?, warnings: inout [String],
                           silenced: inout AudioSource?) throws {
        while writers[0].audioSeconds < seconds {
            let block: [[Float]]?
            do {
                block = try source.nextBlock()
            } catch {
                warnings.append("the sound stops at \((writers[0].audioSeconds * 10).rounded() / 10) s: \(error)")
                silenced = nil
                return
            }
            guard var samples = block else { return }
            if resampler != nil { samples = resampler!.resampled(samples) }
            let rate = Double(resampler?.outputRate ?? source.sampleRate)
            if offset == nil {
                let start = source.startSeconds - videoStart
                offset = start
                if start > 0 {
                    // Silence until the sound starts, made as the video reaches it, not at once:
                    // a sound 30 minutes after a 4 s video took a gigabyte of zeros.
                    for writer in writers { writer.addSilence(seconds: start) }
                } else if start < 0 {
                    let cut = min(samples[0].count, Int((-start * rate).rounded()))
                    samples = samples.map { Array($0.dropFirst(cut)) }
                }
            }
            for writer in writers { writer.addAudio(samples) }
        }
    }
}

/// Sound at a rate AAC does not code, brought to one it does by linear interpolation: rare rates
/// (a camera's 37.8 kHz), where a simple filter is enough for the web's ears.
struct LinearResampler {
    let inputRate: Int
    let outputRate: Int
    /// Where the next output sample falls, in input samples from the start of the next block.
    private var position = 0.0
    private var previous: [Float] = []

    init(from inputRate: Int, to outputRate: Int) {
        self.inputRate = inputRate
        self.outputRate = outputRate
    }

    mutating func resampled(_ block: [[Float]]) -> [[Float]] {
        let step = Double(inputRate) / Double(outputRate)
        let count = block[0].count
        if previous.isEmpty { previous = block.map { $0.first ?? 0 } }
        var output = Array(repeating: [Float](), count: block.count)
        // Position -1 is the previous block's last sample.
        while position < Double(count - 1) {
            let index = Int(position.rounded(.down))
            let fraction = Float(position - Double(index))
            for channel in block.indices {
                let left = index < 0 ? previous[channel] : block[channel][index]
                let right = index + 1 < count ? block[channel][index + 1] : left
                output[channel].append(left + (right - left) * fraction)
            }
            position += step
        }
        position -= Double(count)
        previous = block.map { $0.last ?? 0 }
        return output
    }
}
