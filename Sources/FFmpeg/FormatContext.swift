import CFFmpeg
import Imaging
import FileIO
import Reporting

/// An opened media file: owns an AVFormatContext.
final class FormatContext {
    let pointer: UnsafeMutablePointer<AVFormatContext>

    /// What FFmpeg reads through; it owns the AVIOContext.
    private let input: CustomInput
    /// What the index of an MP4's or MOV's samples holds of the run's budget, while this lives.
    private var indexReservation: MemoryBudget.Reservation?
    /// The memory that index takes, for a reader that reserves more beside it to count.
    private(set) var indexBytes = 0

    /// Reads an input the tool has open (a regular file); its name helps FFmpeg guess the format.
    /// `limits`: what any decoder that probing starts may allocate a frame for, the most one of
    /// FFmpeg's allocations may take (see `FFmpegLibraries.capAllocations`), and the run's budget,
    /// of which the index FFmpeg builds of an MP4's or MOV's samples is held while this lives.
    /// `readsHeadersOnly`: the streams are probed by decoding only when the header leaves something
    /// out in any container (see `headerDescribesEverything`), not only outside QuickTime and MP4.
    convenience init(file: InputFile, limits: DecodeLimits = DecodeLimits(), readsHeadersOnly: Bool = false) throws {
        FFmpegLibraries.capAllocations(at: limits.maxMemory)
        // The index FFmpeg builds is checked from the file's bytes before FFmpeg reads them: a
        // file written to between the two reads was not what was checked (the seventh red team
        // rewrote a run's count in place every 0.5 ms: half of 40 probes said "ok", some past
        // 300 MiB), and is refused once FFmpeg has read its header.
        let before = file.changeStamp
        let index: MP4SampleTables.Index
        do { index = try MP4SampleTables.index(of: file) } catch {
            throw FFmpegError("the file's sample tables", code: cffmpeg_averror(EINVAL), cause: "\(error)")
        }
        let reservation = try limits.reserveIndex(entries: index.entries, bytes: index.bytes)
        let input = try CustomInput(.file(file), unchangedSince: before)
        do {
            try self.init(name: file.displayName, input: input, maxPixels: limits.videoPixels, readsHeadersOnly: readsHeadersOnly,
                          format: Self.evidentDemuxer(of: file), file: file)
        } catch {
            if input.shrinkage == .changed { throw InputError.changed }
            throw error
        }
        if file.changeStamp != before { throw InputError.changed }
        indexReservation = reservation
        indexBytes = index.bytes
    }

    /// The demuxer FFmpeg's probe would choose with full certainty from the first bytes alone,
    /// where that is plain: an ISO BMFF file (QuickTime, MP4: a `ftyp` box first). Named, it
    /// spares running every demuxer's probe over the file's start (about 0.05 ms a file).
    static func evidentDemuxer(of file: InputFile) -> UnsafePointer<AVInputFormat>? {
        guard let start = try? file.head(), start.count >= 8, start[4...7].elementsEqual("ftyp".utf8) else { return nil }
        return av_find_input_format("mov")
    }

    static let noKnownFormat = "its bytes are of no format FFmpeg knows: it is no video, sound or picture"

    /// Whether FFmpeg's probe of the first 64 KiB of `file`, by content alone, names a demuxer.
    static func contentIsOfAKnownFormat(_ file: InputFile) -> Bool {
        var start = [UInt8](repeating: 0, count: 64 << 10)
        guard let got = try? start.withUnsafeMutableBytes({ try file.read(at: 0, into: $0) }), got > 0 else { return false }
        return start.prefix(got).withUnsafeBytes { demuxer(forStart: $0) } != nil
    }

    /// Reads media held in memory, as if it were a file.
    convenience init(bytes: [UInt8]) throws(FFmpegError) {
        try self.init(name: "", input: try CustomInput(.memory(bytes)), maxPixels: DecodeLimits().videoPixels)
    }

    /// `file`: what `input` reads, when it is a file, whose content is looked at again when FFmpeg
    /// cannot open it.
    private init(name: String, input: CustomInput, maxPixels: Int, readsHeadersOnly: Bool = false,
                 format: UnsafePointer<AVInputFormat>? = nil, file: InputFile? = nil) throws(FFmpegError) {
        FFmpegLibraries.silenceLogs()
        var context: UnsafeMutablePointer<AVFormatContext>? = avformat_alloc_context()
        context?.pointee.pb = input.io
        context?.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        // On failure avformat_open_input frees the context (not a custom AVIOContext, which `input` owns).
        // The name is only a hint for probing: FFmpeg opens nothing by it.
        LibraryMessages.clear()
        // MPEG-TS: read every program's table, as ffprobe and ffmpeg do (they set this for every
        // input); without it a TS whose timestamps jump back is timed otherwise than ffprobe times it.
        var formatOptions: OpaquePointer?
        av_dict_set(&formatOptions, "scan_all_pmts", "1", 0)
        let opening = PathBytes.withCString(name) { avformat_open_input(&context, $0, format, &formatOptions) }
        av_dict_free(&formatOptions)
        if opening < 0 {
            // FFmpeg's log names the cause (a truncated MP4: "moov atom not found").
            let said = LibraryMessages.take().map { $0.hasPrefix("FFmpeg: ") ? String($0.dropFirst(8)) : $0 }
            // Content of no format at all is said so, whatever the name: FFmpeg takes a name's
            // extension as a hint, and a text file named .mp4 was "moov atom not found" to one
            // command and "Invalid data found" to another, neither saying it is no video.
            if let file, !Self.contentIsOfAKnownFormat(file) {
                throw FFmpegError(FFmpegError.unrecognised, code: opening, cause: Self.noKnownFormat)
            }
            throw FFmpegError(FFmpegError.unrecognised, code: opening, cause: said)
        }
        guard let opened = context else { throw FFmpegError("cannot open", code: cffmpeg_averror(ENOMEM)) }
        // Before probing: a decoder that refuses a frame over the limit leaves its stream 0x0.
        statedSizes = (0..<Int(opened.pointee.nb_streams)).map { index in
            let parameters = opened.pointee.streams[index]!.pointee.codecpar.pointee
            return (Int(parameters.width), Int(parameters.height))
        }
        let described = readsHeadersOnly ? Self.headerDescribesEverything(opened) : Self.headerDescribesEveryStream(opened)
        streamsWereProbed = !described
        let code = described ? 0 : Self.findStreamInfo(opened, maxPixels: maxPixels)
        if code < 0 {
            avformat_close_input(&context)
            throw FFmpegError("cannot read the streams", code: code)
        }
        pointer = opened
        self.input = input
    }

    /// Throws when the first bytes of a stream (`start`) are of no format FFmpeg knows, as opening
    /// it would: so that a stream that is not media is refused before all of it is copied.
    static func recognise(_ start: UnsafeRawBufferPointer) throws(FFmpegError) {
        if demuxer(forStart: start) == nil { throw FFmpegError(FFmpegError.unrecognised, code: cffmpeg_averror_invaliddata(), cause: noKnownFormat) }
    }

    /// The name of the demuxer FFmpeg would open a file of these first bytes with; nil for none.
    static func demuxer(forStart start: UnsafeRawBufferPointer) -> String? {
        FFmpegLibraries.silenceLogs()
        // Probing reads past the end by up to AVPROBE_PADDING_SIZE bytes, which must be zero.
        var padded = [UInt8](start)
        padded += [UInt8](repeating: 0, count: Int(AVPROBE_PADDING_SIZE))
        var score: Int32 = 0
        let format = padded.withUnsafeMutableBufferPointer { buffer in
            "".withCString { name in
                var probe = AVProbeData(filename: name, buf: buffer.baseAddress, buf_size: Int32(start.count), mime_type: nil)
                return av_probe_input_format2(&probe, 1, &score)
            }
        }
        return format.map { String(cString: $0.pointee.name) }
    }

    /// Probes the streams by decoding their first frames, each decoder told the largest frame it may
    /// allocate: a 16000x16000 PNG frame in a Matroska file, or a cover picture of that size, is
    /// refused by the decoder (av_image_check_size2) instead of taking gigabytes.
    private static func findStreamInfo(_ context: UnsafeMutablePointer<AVFormatContext>, maxPixels: Int) -> Int32 {
        let count = Int(context.pointee.nb_streams)
        var options = [OpaquePointer?](repeating: nil, count: count)
        for index in options.indices { av_dict_set(&options[index], "max_pixels", String(max(1, maxPixels)), 0) }
        let code = options.withUnsafeMutableBufferPointer { avformat_find_stream_info(context, $0.baseAddress) }
        for index in options.indices { av_dict_free(&options[index]) }
        return code
    }

    /// QuickTime and MP4 headers state each stream's codec, size, timing and display matrix, so
    /// probing by decoding the first frames (avformat_find_stream_info: 17 ms at 1080p) adds
    /// nothing the decoder will not learn from the frames it decodes anyway.
    private static func headerDescribesEveryStream(_ context: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        guard let name = context.pointee.iformat?.pointee.name, String(cString: name).hasPrefix("mov,") else { return false }
        return (0..<Int(context.pointee.nb_streams)).allSatisfy { index in
            let parameters = context.pointee.streams[index]!.pointee.codecpar!.pointee
            if parameters.codec_type != AVMEDIA_TYPE_VIDEO { return true }
            return parameters.codec_id != AV_CODEC_ID_NONE && parameters.width > 0 && parameters.height > 0
        }
    }

    /// Whether the header alone states what a probe reports: streams all there from the start (not
    /// MPEG-TS, which finds them as it reads), the duration, each video stream's codec and size and
    /// each audio stream's codec, rate and channels. Matroska, WebM and QuickTime headers do.
    private static func headerDescribesEverything(_ context: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        guard context.pointee.ctx_flags & AVFMTCTX_NOHEADER == 0, context.pointee.duration != cffmpeg_nopts_value(),
              context.pointee.duration > 0, context.pointee.nb_streams > 0 else { return false }
        return (0..<Int(context.pointee.nb_streams)).allSatisfy { index in
            let parameters = context.pointee.streams[index]!.pointee.codecpar!.pointee
            switch parameters.codec_type {
            case AVMEDIA_TYPE_VIDEO:
                return parameters.codec_id != AV_CODEC_ID_NONE && parameters.width > 0 && parameters.height > 0
            case AVMEDIA_TYPE_AUDIO:
                return parameters.codec_id != AV_CODEC_ID_NONE && parameters.sample_rate > 0 && parameters.ch_layout.nb_channels > 0
            default:
                return true
            }
        }
    }

    /// Whether opening decoded the streams' first frames to learn their parameters.
    private(set) var streamsWereProbed = false

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&context)
    }

    var streamCount: Int { Int(pointer.pointee.nb_streams) }

    /// Each stream's frame size as the container's header states it (0x0 where it states none).
    private let statedSizes: [(width: Int, height: Int)]

    /// The frame size of stream `index`: the header's, else what probing found.
    func frameSize(ofStream index: Int) -> (width: Int, height: Int) {
        if index < statedSizes.count, statedSizes[index].width > 0, statedSizes[index].height > 0 { return statedSizes[index] }
        let parameters = stream(index).pointee.codecpar.pointee
        return (Int(parameters.width), Int(parameters.height))
    }

    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream> { pointer.pointee.streams[index]! }

    /// The main video stream: FFmpeg's choice, passing over cover art and other attached pictures.
    func bestVideoStreamIndex() -> Int? {
        // An icon's entries are its streams, smallest first in most files: the picture is the
        // largest that its bytes can hold (a BMP entry claiming 4000x4000 in a few bytes was taken
        // for the picture, and the icon refused), at a bit a pixel at least.
        if String(cString: pointer.pointee.iformat.pointee.name) == "ico" {
            let area = { (index: Int) in self.frameSize(ofStream: index).width * self.frameSize(ofStream: index).height }
            let held = videoStreamIndices().filter { index in
                guard self.stream(index).pointee.codecpar.pointee.codec_id == AV_CODEC_ID_BMP else { return true }
                let entry = avformat_index_get_entry(self.stream(index), 0)
                return entry.map { Int($0.pointee.size) * 8 >= area(index) } ?? false
            }
            return (held.isEmpty ? videoStreamIndices() : held).max { area($0) < area($1) }
        }
        let isPicture = { (index: Int) in self.stream(index).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 }
        let best = av_find_best_stream(pointer, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        if best >= 0 && !isPicture(Int(best)) { return Int(best) }
        return (0..<streamCount).first { index in
            stream(index).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO && !isPicture(index)
        }
    }

    /// The frames of stream `index` whose bytes the container's index places past `size`, and all
    /// it indexes; nil when it has no index.
    func indexedFrames(ofStream index: Int, pastByteCount size: Int) -> (missing: Int, indexed: Int)? {
        let stream = self.stream(index)
        let count = Int(avformat_index_get_entries_count(stream))
        guard count > 0 else { return nil }
        var missing = 0
        for entry in 0..<count {
            guard let found = avformat_index_get_entry(stream, Int32(entry)) else { continue }
            if found.pointee.pos + Int64(found.pointee.size) > Int64(size) { missing += 1 }
        }
        return (missing, count)
    }

    /// The video streams that are not attached pictures, in file order.
    func videoStreamIndices() -> [Int] {
        (0..<streamCount).filter { index in
            stream(index).pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
                && stream(index).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        }
    }

    /// Reads the next packet of any stream. Returns false at the end; a read error also ends the
    /// input (as a truncated file does), and is kept in `readError`; a file that shrank while it
    /// was read is an error, thrown, not an end.
    func read(into packet: Packet) throws(InputError) -> Bool {
        packet.unreference()
        let code = av_read_frame(pointer, packet.pointer)
        if code < 0 {
            if let shrinkage = input.shrinkage { throw shrinkage }
            if code != FFmpegError.endOfFile { readError = FFmpegError("cannot read", code: code) }
            return false
        }
        return true
    }

    private(set) var readError: FFmpegError?

    /// Moves to the keyframe at or before `timestamp` (in the stream's time base).
    func seek(stream index: Int, to timestamp: Int64) throws(FFmpegError) {
        readError = nil
        try FFmpegError.check(avformat_seek_file(pointer, Int32(index), Int64.min, timestamp, timestamp, 0), "cannot seek")
    }

    /// The whole file's duration in seconds, when the container states it.
    var durationSeconds: Double? {
        let duration = pointer.pointee.duration
        guard duration != cffmpeg_nopts_value(), duration > 0 else { return nil }
        return Double(duration) / Double(AV_TIME_BASE)
    }
}
