import FFmpeg
import ImageCodecs
import Imaging
import Batch
import FileIO

/// What making one thumbnail did.
public struct ThumbnailReport: Sendable {
    public let output: String
    /// The presentation time of the frame written, from the stream's first frame.
    public let seconds: Double
    public let width: Int
    public let height: Int
    /// The orientation applied to make it upright.
    public let orientation: Orientation
    /// Things done other than asked, each one line.
    public let warnings: [String]
}

/// Makes a still image of a video at a time: the exact frame, upright, at display aspect, in its colours.
public struct Thumbnailer: Sendable {
    public let options: ThumbnailOptions

    public init(options: ThumbnailOptions) {
        self.options = options
    }

    public func makeThumbnail(of input: String, to output: String) throws -> ThumbnailReport {
        let (file, target) = try OutputGuard.open(input: input, output: output, policy: options.output,
                                                  recognise: VideoSource.recognise)
        let report = try makeThumbnail(from: file, into: target.descriptor, output: output)
        try target.commit()
        return report
    }

    /// The thumbnail as a job: its planned output the only one it writes.
    public var job: FileJob {
        FileJob(recognise: VideoSource.recognise, policy: options.output) { file, outputs, name in
            let report = try makeThumbnail(from: file, into: outputs.primary, output: name)
            return JobReport(fields: [
                ("seconds", .double(report.seconds)), ("width", .int(report.width)), ("height", .int(report.height)),
                ("orientation", .int(report.orientation.rawValue)),
            ], warnings: report.warnings)
        }
    }

    /// The thumbnail of an open input, written whole to `descriptor` (the output's temporary, which
    /// the caller moves into place); `output` names it in the report.
    public func makeThumbnail(from file: InputFile, into descriptor: Int32, output: String) throws -> ThumbnailReport {
        if options.cover != .never {
            if let cover = try CoverArt.picture(in: file, limits: options.limits) {
                return try write(cover, to: descriptor, output: output)
            }
            if options.cover == .only { throw VideoError.noCoverArt }
        }
        // One keyframe gains nothing from frame threads and pays for starting them (measured: 40 ms
        // against 60 ms at 1080p); a run of frames to decode gains 1.45x from them.
        let threads = options.mode == .keyframe ? 1 : options.threads
        let video = try VideoSource(file: file, threads: threads, videoStream: options.videoStream, limits: options.limits)
        var warnings: [String] = []
        let seconds: Double
        switch options.time {
        case .posterFrame:
            seconds = try PosterFrame.seconds(in: video)
        case .at(.seconds(let value)):
            seconds = value
        case .at(.fraction(let fraction)):
            guard let duration = video.durationSeconds else { throw VideoError.unknownDuration }
            seconds = fraction * duration
        }
        if let colourWarning = video.colourWarning { warnings.append(colourWarning) }
        let located = try video.frame(atSeconds: seconds, mode: options.time == .posterFrame ? .keyframe : options.mode)
        if located.hasErrors {
            warnings.append("the frame decoded with errors even from the start of the file: it is damaged, and the picture may show it")
        }
        if located.isPastEnd {
            warnings.append("\(Self.format(seconds)) s is past the end: wrote the last frame, at \(Self.format(located.seconds)) s")
        }
        var orientation = Orientation.identity
        if options.appliesOrientation {
            let upright = video.uprightOrientation(of: located.frame)
            orientation = upright.orientation
            if let warning = upright.warning { warnings.append(warning) }
        }
        let geometry = DisplayGeometry(codedWidth: located.frame.width, codedHeight: located.frame.height,
                                       pixelAspect: video.pixelAspectRatio(of: located.frame), orientation: orientation,
                                       maxWidth: options.maxWidth, maxHeight: options.maxHeight)
        let keepsHDR = options.hdr == .keep && video.isHDR(located.frame)
        let pixels = try video.pixels(of: located.frame, width: geometry.scaledWidth, height: geometry.scaledHeight,
                                      deinterlaces: options.deinterlaces, sixteenBit: keepsHDR || options.sixteenBit,
                                      threads: options.threads)
            .oriented(orientation)
        // Kept as HDR, the pixels are BT.2020 PQ or HLG, which the cICP chunk says; otherwise sRGB.
        let metadata = PictureMetadata(codePoints: keepsHDR ? video.codePoints(of: located.frame) : nil)
        warnings += try ImageEncoders.encoder(for: options.format, settings: options.encoding)
            .write(pixels, metadata: metadata, to: descriptor)
        return ThumbnailReport(output: output, seconds: located.seconds, width: pixels.width, height: pixels.height,
                               orientation: orientation, warnings: warnings)
    }

    /// The cover art, within the size asked for, at its own aspect.
    private func write(_ cover: CoverArt, to descriptor: Int32, output: String) throws -> ThumbnailReport {
        let geometry = DisplayGeometry(codedWidth: cover.width, codedHeight: cover.height, pixelAspect: (1, 1), orientation: .identity,
                                       maxWidth: options.maxWidth, maxHeight: options.maxHeight)
        let pixels = try cover.pixels(width: geometry.scaledWidth, height: geometry.scaledHeight)
        let warnings = try ImageEncoders.encoder(for: options.format, settings: options.encoding)
            .write(pixels, metadata: PictureMetadata(), to: descriptor)
        return ThumbnailReport(output: output, seconds: 0, width: pixels.width, height: pixels.height,
                               orientation: .identity, warnings: warnings)
    }

    /// Seconds with at most three decimals, and no trailing zeros.
    static func format(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        let whole = "\(millis / 1000)"
        let fraction = millis % 1000
        if fraction == 0 { return whole }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}
