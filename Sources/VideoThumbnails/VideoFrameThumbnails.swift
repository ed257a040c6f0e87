import FFmpeg
import ImageCodecs
import Imaging
import FileIO
import MetadataStripping
import Reporting

/// The frame of a video at a time (or its cover art), in every size asked: the frame converted once
/// at the largest size, the others reduced from it.
struct VideoFrameThumbnails {
    let options: ThumbnailOptions

    func make(from file: InputFile, sizes: [ThumbnailSize]) throws -> MadeThumbnails {
        // Loaded already, except in a worker started for pictures that was sent something else (a
        // file rewritten between the parent's look at it and the worker's): an error, not an exit.
        try FFmpegLibraries.load()
        if options.cover != .never {
            if let cover = try CoverArt.picture(in: file, limits: options.limits) {
                return try pictures(of: cover, sizes: sizes)
            }
            if options.cover == .only { throw VideoError.noCoverArt }
        }
        // One keyframe gains nothing from frame threads and pays for starting them (measured: 40 ms
        // against 60 ms at 1080p); a run of frames to decode gains 1.45x from them.
        let threads = options.mode == .keyframe ? 1 : options.threads
        let video = try VideoSource(file: file, threads: threads, videoStream: options.videoStream, limits: options.limits)
        let (seconds, mode, timeWarnings) = try time(in: video, of: file, threads: threads)
        var warnings = timeWarnings
        if let colourWarning = video.colourWarning { warnings.append(colourWarning) }
        let located = try video.frame(atSeconds: seconds, mode: mode)
        var made = try pictures(of: located, askedAt: seconds, in: video, sizes: sizes)
        made.warnings = warnings + made.warnings
        if video.isPicture {
            if options.animationTime != nil && !located.isPastEnd {
                made.warnings.append("an animated picture: the frame shown at \(SecondsText.of(located.seconds)) s was read")
            }
            made.seconds = nil
        }
        return made
    }

    /// The time of the frame the options ask for in `video`, how to find it, and what is said of it.
    func time(in video: VideoSource, of file: InputFile, threads: Int) throws -> (seconds: Double, mode: VideoSource.SeekMode, warnings: [String]) {
        var warnings: [String] = []
        var seconds = 0.0
        var mode = options.mode
        // A raw stream (H.264, MPEG-2 video) states no duration: a share of it has no place, and
        // the first frame is shown, as ffmpegthumbnailer shows it, with a warning.
        let unknownDuration = "the duration is unknown (a raw stream?): the first frame is shown"
        switch options.time {
        case _ where video.isPicture:
            // An animated GIF is a picture, as probe says, and is read as an animated WebP is: its
            // first frame (as vips and browsers show it), or with --at the frame shown then.
            mode = .exact
            switch options.animationTime {
            case nil: seconds = 0
            case .seconds(let value): seconds = value
            case .fraction(let fraction): seconds = fraction * (video.durationSeconds ?? 0)
            }
        case .posterFrame where video.durationSeconds == nil:
            warnings.append("\(unknownDuration), not a poster frame")
        case .posterFrame:
            // A Live Photo's video is shown from the frame its still was taken from: the camera's
            // own choice is the best poster there is.
            if video.livePhotoIdentifier != nil, let still = TimedMetadata.stillImageTime(in: file) {
                (seconds, mode) = (still, .exact)
            } else {
                let poster = try PosterFrame.choose(in: video, threads: threads)
                (seconds, mode) = (poster.seconds, poster.mode)
            }
        case .at(.seconds(let value)):
            seconds = value
        case .at(.fraction(let fraction)):
            if let duration = video.durationSeconds {
                seconds = fraction * duration
            } else if options.firstFrameWithoutDuration {
                warnings.append("\(unknownDuration), not the one at \(SecondsText.of(fraction * 100))%")
            } else {
                throw VideoError.unknownDuration
            }
        }
        return (seconds, mode, warnings)
    }

    /// The frames shown at many times (ascending), each in every size, from one pass over the file
    /// (`VideoSource.frames(atSeconds:mode:)`): `body` has each in the order of the times.
    /// `times`: from the video's duration (nil when the file states none) and its indexed keyframes.
    func make(from file: InputFile, atSeconds schedule: (_ duration: Double?, _ keyframes: () -> [Double]) throws -> [Double], sizes: [ThumbnailSize],
              _ body: (_ index: Int, _ made: MadeThumbnails) throws -> Void) throws {
        try FFmpegLibraries.load()
        let video = try VideoSource(file: file, threads: options.mode == .keyframe ? 1 : options.threads,
                                    videoStream: options.videoStream, limits: options.limits)
        let times = try schedule(video.durationSeconds, { video.indexedKeyframeSeconds() })
        let colourWarnings = video.colourWarning.map { [$0] } ?? []
        try video.frames(atSeconds: times, mode: options.mode) { found in
            var made = try pictures(of: found.located, askedAt: times[found.index], in: video, sizes: sizes)
            made.warnings = colourWarnings + made.warnings
            try body(found.index, made)
        }
    }

    /// A located frame, upright at display aspect, in every size: converted once at the largest
    /// size, the others reduced from it.
    func pictures(of located: VideoSource.LocatedFrame, askedAt seconds: Double, in video: VideoSource,
                          sizes: [ThumbnailSize]) throws -> MadeThumbnails {
        var warnings: [String] = []
        if located.hasErrors {
            warnings.append("the frame decoded with errors even from the start of the file: it is damaged, and the picture may show it")
        }
        if located.followsUndecodableFrames {
            warnings.append("the frames at \(SecondsText.of(seconds)) s did not decode (the file is damaged there): wrote the first that did, at \(SecondsText.of(located.seconds)) s")
        }
        if located.isPastEnd {
            warnings.append("\(SecondsText.of(seconds)) s is past the end: wrote the last frame, at \(SecondsText.of(located.seconds)) s")
        }
        let (display, warning) = video.display(of: located.frame, upright: options.appliesOrientation)
        if let warning { warnings.append(warning) }
        let orientation = display.orientation
        let ladder = ThumbnailLadder(sizes: sizes, displayWidth: display.outputWidth, displayHeight: display.outputHeight, fill: options.fill)
        let keepsHDR = options.hdr == .keep && video.isHDR(located.frame)
        // The frame is scaled once, by libswscale, to the largest size; the ladder reduces the rest.
        let (width, height) = orientation.storedSize(displayWidth: ladder.decodeAtLeast.width, displayHeight: ladder.decodeAtLeast.height)
        try Self.checkMemory(ladder, width: width, height: height, limits: options.limits)
        let pictures = try ladder.make(decodedWidth: width, decodedHeight: height, orientation: orientation) { band in
            band(try video.pixels(of: located.frame, width: width, height: height, deinterlaces: options.deinterlaces,
                                  sixteenBit: keepsHDR || options.sixteenBit, threads: options.threads))
        }
        // Kept as HDR, the pixels are BT.2020 PQ or HLG, which the cICP chunk says; otherwise sRGB.
        let metadata = PictureMetadata(codePoints: keepsHDR ? video.codePoints(of: located.frame) : nil)
        return MadeThumbnails(pictures: pictures, metadata: metadata, seconds: located.seconds, orientation: orientation, warnings: warnings,
                              isPastEnd: located.isPastEnd, decodingBytes: video.decodingBytes)
    }

    /// The cover art, within each size, at its own aspect.
    private func pictures(of cover: CoverArt, sizes: [ThumbnailSize]) throws -> MadeThumbnails {
        let ladder = ThumbnailLadder(sizes: sizes, displayWidth: cover.width, displayHeight: cover.height, fill: options.fill)
        let (width, height) = ladder.decodeAtLeast
        try Self.checkMemory(ladder, width: width, height: height, limits: options.limits)
        let pictures = try ladder.make(decodedWidth: width, decodedHeight: height, orientation: .identity) { band in
            band(try cover.pixels(width: width, height: height))
        }
        return MadeThumbnails(pictures: pictures, metadata: PictureMetadata(), seconds: 0, orientation: .identity, warnings: [])
    }

    /// The sizes asked (`--size 100000 --enlarge` included) against `--max-memory`: the frame
    /// converted at the largest and every reduction of it, before any is allocated.
    static func checkMemory(_ ladder: ThumbnailLadder, width: Int, height: Int, limits: DecodeLimits) throws {
        // One size, the one converted: the converter's own check of the frame says it best.
        if ladder.rungs.count == 1 { return }
        let (converted, overflow) = width.multipliedReportingOverflow(by: height * 8)
        let (needed, sumOverflow) = converted.addingReportingOverflow(ladder.workingBytes(decodedWidth: width, decodedHeight: height,
                                                                                          channels: 4, bytesPerSample: 2))
        if overflow || sumOverflow || needed > limits.maxMemory {
            throw ThumbnailSizeError.tooLarge(width: width, height: height, needed: overflow || sumOverflow ? Int.max : needed, limit: limits.maxMemory)
        }
    }
}
