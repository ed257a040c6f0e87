import WorkerPool
import FFmpeg
import FileIO
import ImageCodecs
import Imaging
import JSON
import MediaFormats
import MediaProbe
import MetadataStripping
import PictureDigests
import Previews
import Storyboards
import VideoThumbnails
import WebVideo

/// Everything a site needs from one upload, from one open of it: its probe, its renditions (of a
/// video, of its poster frame), a video's storyboard and preview, placeholders and hashes, and
/// the manifest that lists them. A picture is decoded once: every rendition, and the small
/// pictures the placeholders and hashes are made from, come from that decode.
public struct Ingester: Sendable {
    public let options: IngestOptions

    public init(options: IngestOptions) {
        self.options = options
    }

    /// The manifest's fields and the warnings, the manifest written to `outputs.primary`.
    public func ingest(_ file: InputFile, outputs: any JobOutputs) throws -> (fields: [(name: String, value: JSONValue)], warnings: [String]) {
        var probeOptions = ProbeOptions()
        probeOptions.includesGPS = options.includesGPS
        probeOptions.limits = options.limits
        probeOptions.threads = options.threads
        let (probe, probeWarnings) = try Prober(options: probeOptions).probe(file)
        let recipe = options.recipe
        var warnings = probeWarnings

        // The paths this run writes, by what they are; an output planned but found made already
        // (`--skip-existing`) is missing here, and kept.
        let templates = recipe.outputs
        var planned: [IngestOutput: String] = [:]
        for output in outputs.planned {
            if let match = templates.first(where: { $0.template == output.variant }) { planned[match.output] = output.path }
        }
        var renditions: [IngestManifest.Entry] = []
        var digests = PictureDigests()
        // An audio file's picture is its cover art, where it has one.
        let coverArt = probe.kind == .audio && probe.coverArt == true
        if probe.kind != .audio || coverArt {
            // Nothing to decode for a recipe of no renditions and no digests (a storyboard alone).
            let decodesPicture = !recipe.renditions.isEmpty || !recipe.digests.isEmpty
            // A video's poster is decoded on a thread of its own while its storyboard and preview
            // are made here: its decoding reads the file through a reader of its own, and what it
            // writes is written here, after, since outputs are opened from one thread. Only where
            // the memory holds both: each holds frames of the budget, and side by side they can
            // each wait for what the other holds (an 8K clip at 1 GiB waited out its stall, alone,
            // then was refused); else the poster is decoded after them.
            var videoEntries: [IngestManifest.Entry] = []
            var poster: MadeThumbnails?
            let cutShort = probeWarnings.contains { $0.hasPrefix(Prober.cutShortWarning) }
            if probe.kind == .video, let webVideo = webVideoToMake(of: file, probe: probe, cutShort: cutShort, planned: planned) {
                (videoEntries, poster) = try oneDecode(of: file, webVideo: webVideo, decodesPicture: decodesPicture, outputs: outputs,
                                                       planned: planned, warnings: &warnings)
            } else {
                let alongside = decodesPicture && probe.kind == .video && Self.posterFitsAlongside(probe, limits: options.limits)
                // Alongside, the poster's decoding has its share of the memory only: a header that
                // says the frames are smaller than they are (an MJPEG's sample description of 64x64
                // over 8K pictures) would have both wait for the other. A poster that does not fit
                // its share (or fails for any reason) is made again after them, with all of it.
                let posterTask = alongside ? JoinableTask { try pictures(of: file, memoryShare: Self.framesHeldAlongside) } : nil
                do {
                    if probe.kind == .video { videoEntries = try videoOutputs(of: file, outputs: outputs, planned: planned, warnings: &warnings) }
                } catch {
                    _ = try? posterTask?.value()
                    throw error
                }
                if decodesPicture { poster = try (try? posterTask?.value()) ?? pictures(of: file, coverArt: coverArt) }
                if probe.kind == .video, options.recipe.webVideo != nil {
                    videoEntries.append(planned[.webVideo] == nil ? .kept(name: "web_video") : .webVideoNotNeeded)
                }
            }
            if decodesPicture, let made = poster {
                // The conversion to sRGB is ingest's own, not a setting a warning could point to.
                let ownWarnings = made.warnings.map { $0.replacingEvery(" (\(Setting.convertsToSRGB))", with: "") }
                warnings += ownWarnings.filter { !warnings.contains($0) }
                renditions = try writeRenditions(made, outputs: outputs, planned: planned, warnings: &warnings)
                let extra = made.pictures.dropFirst(recipe.renditionSizes.count)
                if !recipe.digests.isEmpty, extra.count == 2 {
                    digests = PictureDigests(request: recipe.digests, placeholderPicture: extra[extra.startIndex], hashPicture: extra[extra.startIndex + 1])
                }
            }
            renditions += videoEntries
        } else {
            warnings.append("an audio file without cover art: its manifest holds its probe only")
        }
        if let path = planned[.original] { renditions.append(try writeStrippedOriginal(of: file, probe: probe, to: path, outputs: outputs, planned: planned)) }
        if let video = probe.motionPhoto, probe.kind == .picture {
            renditions += try motionOutputs(of: file, at: video.offset..<(video.offset + video.length), outputs: outputs,
                                            planned: planned, warnings: &warnings)
        }
        let manifest = IngestManifest(
            input: file.displayName, probe: probe, includesGPS: options.includesGPS, entries: renditions,
            placeholders: recipe.digests.placeholders ? digests.thumbHash.flatMap { thumb in digests.blurHash.map { (thumb, $0) } } : nil,
            hashes: recipe.digests.hashes ? digests.differenceHash.flatMap { difference in digests.perceptualHash.map { (difference, $0) } } : nil)
        let line = try JSONValueEncoder.encode(manifest)
        guard case .object(let members) = line else { preconditionFailure("a manifest encodes as an object") }
        let fields = members.map { (name: $0.name, value: $0.value) }
        // The manifest is the planned output: a run that finds it skips the input (see `IngestJob`).
        let text = line.text + "\n"
        try FileSystem.writeAll(Array(text.utf8), to: outputs.primary, target: planned[.manifest] ?? "")
        return (fields, warnings)
    }

    /// The web video this run makes of a video, where the recipe asks for one and the run makes
    /// it (not kept from an earlier run), and why: where the upload plays in browsers as it is,
    /// none, unless the recipe says always.
    private func webVideoToMake(of file: InputFile, probe: ProbeResult, cutShort: Bool, planned: [IngestOutput: String])
        -> (path: String, reasons: [String])? {
        guard let settings = options.recipe.webVideo, let path = planned[.webVideo] else { return nil }
        let reasons = WebPlayability.reasons(probe, movieFirst: WebPlayability.movieComesFirst(in: file), cutShort: cutShort,
                                             firstFrameInterlaced: { firstFrameIsInterlaced(of: file) })
        if reasons.isEmpty && !settings.always { return nil }
        return (path, reasons)
    }

    /// Whether the video's first frame is coded as fields; nil where it does not decode.
    private func firstFrameIsInterlaced(of file: InputFile) -> Bool? {
        guard let video = try? VideoSource(file: file, threads: 1, limits: options.limits),
              let first = try? video.frame(atSeconds: 0, mode: .keyframe) else { return nil }
        return video.isInterlaced(first.frame)
    }

    /// A video's web video, storyboard, preview and poster from one decode: the web video's pass
    /// over every frame, from which the others take the frames shown at their times (the
    /// storyboard and preview each their own frames, not keyframes near them). The poster's time
    /// is chosen first, as `thumbnail` chooses it (a poster frame looks at a few keyframes).
    private func oneDecode(of file: InputFile, webVideo: (path: String, reasons: [String]), decodesPicture: Bool,
                           outputs: any JobOutputs, planned: [IngestOutput: String],
                           warnings: inout [String]) throws -> (entries: [IngestManifest.Entry], poster: MadeThumbnails?) {
        // Named as a rendition of another video's ladder (v.480p.mov's master v.480p.mov.m3u8 is
        // no rendition, but a template may make one): one would replace the other.
        if options.recipe.webVideo?.hls == true, HLSNames.master(ofRendition: webVideo.path) != nil {
            throw HLSNameError.masterNamedAsARendition(master: webVideo.path)
        }
        let transcoder = Transcoder(options: transcodeOptions(options.recipe.webVideo ?? IngestRecipe.WebVideoSettings()))
        let video = try transcoder.opening(file)
        var poster: MadeThumbnails?
        var jobs: [FramesAlongside] = []
        if decodesPicture {
            let thumbnailer = Thumbnailer(options: posterOptions())
            let (seconds, timeWarnings) = try thumbnailer.frameTime(in: video, of: file)
            jobs.append(FramesAlongside(times: { _ in [seconds] }, take: { found, video in
                var made = try thumbnailer.pictures(of: found.located, askedAt: seconds, in: video, sizes: thumbnailer.options.sizes)
                made.pictures = made.pictures.map { $0.withBytesPerSample(1) }
                made.warnings = timeWarnings + made.warnings
                poster = made
            }))
        }
        let preview = options.recipe.preview.flatMap { settings in
            planned[.preview].map { _ in PreviewAlongside(previewer: Previewer(options: previewOptions(settings))) }
        }
        let previewJob = preview?.job
        var made: (entry: IngestManifest.Entry, warnings: [String])?
        let pass = { (others: [FramesAlongside]) throws in
            made = try writeWebVideo(of: file, video: video, alongside: others + jobs, by: transcoder, webVideo: webVideo,
                                     outputs: outputs, planned: planned)
        }
        var entries: [IngestManifest.Entry] = []
        if let settings = options.recipe.storyboard {
            if let vtt = planned[.storyboard] {
                var tookAlongside = false
                entries.append(try storyboard(of: file, vtt: vtt, settings: settings, outputs: outputs, planned: planned,
                                              alongside: previewJob, pass: SharedPass(video: video, run: pass),
                                              tookAlongside: &tookAlongside, warnings: &warnings))
            } else {
                entries.append(.kept(name: "storyboard"))
            }
        }
        if made == nil { try pass(previewJob.map { [$0] } ?? []) }
        guard let made else { preconditionFailure("the pass was run") }
        if let settings = options.recipe.preview {
            if let path = planned[.preview], let assembly = preview?.assembly {
                entries.append(try writePreview(assembly.finish(), settings: settings, to: path, outputs: outputs,
                                                planned: planned, warnings: &warnings))
            } else {
                entries.append(.kept(name: "preview"))
            }
        }
        warnings += made.warnings.filter { !warnings.contains($0) }
        entries.append(made.entry)
        return (entries, poster)
    }

    /// The web video, an MP4 or an HLS ladder, from the pass over every frame that `alongside`
    /// take theirs from; opened once the pass begins (after the storyboard looked for its files).
    private func writeWebVideo(of file: InputFile, video: VideoSource, alongside: [FramesAlongside], by transcoder: Transcoder,
                               webVideo: (path: String, reasons: [String]), outputs: any JobOutputs,
                               planned: [IngestOutput: String]) throws -> (entry: IngestManifest.Entry, warnings: [String]) {
        let path = webVideo.path, fromManifest = Self.relative(webVideo.path, to: planned[.manifest])
        guard options.recipe.webVideo?.hls == true else {
            let descriptor = try outputs.open(path, namedByUser: false)
            let made = try transcoder.transcode(file, video: video, alongside: alongside, to: descriptor, target: path)
            try outputs.finish(descriptor)
            return (.webVideo(path: path, file: fromManifest, width: made.width, height: made.height, codecs: made.codecs,
                              milliseconds: Int((made.seconds * 1000).rounded()), frames: made.frames, bytes: made.bytes,
                              because: webVideo.reasons), made.warnings)
        }
        let names = HLSNames(master: path)
        var videos: [Int32] = []
        let ladder = try transcoder.makeLadder(file, video: video, alongside: alongside, open: { rung in
            let descriptor = try outputs.open(names.video(rung), namedByUser: false)
            videos.append(descriptor)
            return (descriptor, names.video(rung))
        })
        for descriptor in videos { try outputs.finish(descriptor) }
        for rendition in ladder.renditions {
            let text = HLSPlaylist.media(of: rendition, videoName: names.fileName(names.video(rendition.name)))
            let descriptor = try outputs.open(names.playlist(rendition.name), namedByUser: false)
            try FileSystem.writeAll(Array(text.utf8), to: descriptor, target: names.playlist(rendition.name))
            try outputs.finish(descriptor)
        }
        let master = HLSPlaylist.master(of: ladder, playlistNames: ladder.renditions.map { names.fileName(names.playlist($0.name)) })
        let descriptor = try outputs.open(path, namedByUser: false)
        try FileSystem.writeAll(Array(master.utf8), to: descriptor, target: path)
        try outputs.finish(descriptor)
        let renditions = ladder.renditions.map {
            IngestManifest.LadderRendition(name: $0.name, width: $0.width, height: $0.height, codecs: $0.codecs, bandwidth: $0.peakBitsPerSecond,
                                           bytes: $0.bytes, video: JSONPath(Self.relative(names.video($0.name), to: planned[.manifest])),
                                           playlist: JSONPath(Self.relative(names.playlist($0.name), to: planned[.manifest])))
        }
        return (.hlsLadder(path: path, file: fromManifest, milliseconds: Int((ladder.seconds * 1000).rounded()), frames: ladder.frames,
                           renditions: renditions, because: webVideo.reasons), ladder.warnings)
    }

    private func transcodeOptions(_ settings: IngestRecipe.WebVideoSettings) -> TranscodeOptions {
        var transcode = TranscodeOptions()
        (transcode.maxWidth, transcode.maxHeight) = (nil, nil)
        transcode.maxShorterSide = settings.shorterSide
        transcode.preset = settings.preset
        transcode.crf = settings.crf
        transcode.limits = options.limits
        transcode.output = options.output
        transcode.threads = options.threads
        return transcode
    }

    /// Frames held at once where the poster is decoded beside the storyboard and preview: the
    /// poster's two readers (`PosterFrame` measures keyframes on two), the storyboard's, and the
    /// preview's pass beside it.
    static let framesHeldAlongside = 4

    /// Whether the video's frames, as many as are held at once with the poster decoded beside the
    /// storyboard and preview, fit the memory limit; not where the probe gives no frame size.
    static func posterFitsAlongside(_ probe: ProbeResult, limits: DecodeLimits) -> Bool {
        guard let width = probe.codedWidth ?? probe.width, let height = probe.codedHeight ?? probe.height else { return false }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && pixels <= limits.maxMemory / DecodeLimits.videoBytesPerPixel / framesHeldAlongside
    }

    /// Each rendition this run makes, encoded to its output; the manifest's entry of each.
    private func writeRenditions(_ made: MadeThumbnails, outputs: any JobOutputs, planned: [IngestOutput: String],
                                 warnings: inout [String]) throws -> [IngestManifest.Entry] {
        // The encoders' memory, held while they encode: the largest of any format's need.
        let reservations = try Set(options.recipe.renditions.map(\.format)).map { format in
            try format.reserveEncoder(for: made.pictures, settings: EncodingSettings(), maxMemory: options.limits.maxMemory, budget: options.limits.budget)
        }
        defer { withExtendedLifetime(reservations) {} }
        let sizes = options.recipe.renditionSizes
        return try options.recipe.renditions.enumerated().map { index, rendition in
            // A rendition in several formats is one reduction, written in each.
            let pixels = made.pictures[sizes.firstIndex(of: rendition.size)!]
            guard let path = planned[.rendition(index: index)] else {
                return .keptRendition(name: rendition.name, width: pixels.width, height: pixels.height, format: rendition.format.rawValue)
            }
            var settings = EncodingSettings()
            settings.jpegQuality = rendition.quality
            settings.threads = options.threads
            let descriptor = try outputs.open(path, namedByUser: false)
            var left: [String] = []
            let bytes = try CountedOutput.write(to: descriptor) { counted in
                left = try ImageEncoders.encoder(for: rendition.format, settings: settings).write(pixels, metadata: made.metadata, to: counted)
            }
            warnings += left.filter { !warnings.contains($0) }
            try outputs.finish(descriptor)
            return .rendition(name: rendition.name, path: path, file: Self.relative(path, to: planned[.manifest]),
                              width: pixels.width, height: pixels.height, format: rendition.format.rawValue,
                              mime: rendition.format.mimeType, bytes: bytes)
        }
    }

    /// Every rendition and then the two small pictures the digests are made from, upright, in sRGB,
    /// 8 bits: of a picture, or of a video's poster frame.
    /// `memoryShare`: the part of the memory limit the decoding may take (one in that many).
    func pictures(of file: InputFile, coverArt: Bool = false, memoryShare: Int = 1) throws -> MadeThumbnails {
        let thumbnails = posterOptions(coverArt: coverArt, memoryShare: memoryShare)
        var made = try Thumbnailer(options: thumbnails).pictures(from: file, sizes: thumbnails.sizes)
        made.pictures = made.pictures.map { $0.withBytesPerSample(1) }
        return made
    }

    /// How the renditions and the digests' small pictures are made of a picture or a video's frame.
    private func posterOptions(coverArt: Bool = false, memoryShare: Int = 1) -> ThumbnailOptions {
        var thumbnails = ThumbnailOptions()
        thumbnails.cover = coverArt ? .only : .never
        thumbnails.time = options.recipe.posterTime
        thumbnails.mode = .exact
        thumbnails.limits = options.limits
        thumbnails.limits.maxMemory = options.limits.maxMemory / max(1, memoryShare)
        thumbnails.threads = options.threads
        thumbnails.convertsToSRGB = true
        thumbnails.hdr = .toneMap
        thumbnails.format = .jpeg
        var sizes = options.recipe.renditionSizes
        if !options.recipe.digests.isEmpty {
            sizes.append(ThumbnailSize(width: PictureDigests.placeholderBox, height: PictureDigests.placeholderBox))
            sizes.append(ThumbnailSize(width: PictureDigests.hashBox, height: PictureDigests.hashBox))
        }
        thumbnails.sizes = sizes
        return thumbnails
    }

    /// A video's storyboard and preview, each where the recipe asks for one and this run makes it.
    private func videoOutputs(of file: InputFile, outputs: any JobOutputs, planned: [IngestOutput: String],
                              warnings: inout [String]) throws -> [IngestManifest.Entry] {
        var storyboardEntry: IngestManifest.Entry?, previewEntry: IngestManifest.Entry?
        let previewer = options.recipe.preview.map { Previewer(options: previewOptions($0)) }
        let previewPath = options.recipe.preview == nil ? nil : planned[.preview]
        var preview: Preview?
        if let settings = options.recipe.storyboard {
            if let vtt = planned[.storyboard] {
                // The preview's frames from the storyboard's pass, where it decodes its cells' own
                // frames: a frame both need is decoded once.
                let alongside = previewer.flatMap { previewer in previewPath.map { _ in PreviewAlongside(previewer: previewer) } }
                var tookAlongside = false
                storyboardEntry = try storyboard(of: file, vtt: vtt, settings: settings, outputs: outputs, planned: planned,
                                                 alongside: alongside?.job, pass: nil, tookAlongside: &tookAlongside, warnings: &warnings)
                if tookAlongside, let assembly = alongside?.assembly { preview = try assembly.finish() }
            } else {
                storyboardEntry = .kept(name: "storyboard")
            }
        }
        if let settings = options.recipe.preview, let previewer {
            if let path = previewPath {
                previewEntry = try writePreview(preview ?? previewer.makePreview(from: file), settings: settings, to: path,
                                                outputs: outputs, planned: planned, warnings: &warnings)
            } else {
                previewEntry = .kept(name: "preview")
            }
        }
        return [storyboardEntry, previewEntry].compactMap { $0 }
    }

    /// The storyboard written to its WebVTT file `vtt` and its sheets, from its own pass over the
    /// video or from `pass`; `alongside` takes its frames from the same pass, where the storyboard
    /// decodes each cell's own frame (`tookAlongside` says whether it did).
    private func storyboard(of file: InputFile, vtt: String, settings: IngestRecipe.StoryboardSettings, outputs: any JobOutputs,
                            planned: [IngestOutput: String], alongside: FramesAlongside?, pass: SharedPass?,
                            tookAlongside: inout Bool, warnings: inout [String]) throws -> IngestManifest.Entry {
        let storyboardOutputs = StoryboardOutputs(vtt: vtt, of: outputs)
        let report: StoryboardReport
        do {
            report = try Storyboarder(options: storyboardOptions(settings)).makeStoryboard(
                from: file, input: file.displayName, vtt: vtt, html: nil, outputs: storyboardOutputs, alongside: alongside, pass: pass)
        } catch {
            throw storyboardOutputs.openFailure ?? error
        }
        warnings += report.warnings
        try storyboardOutputs.finishPrimary()
        tookAlongside = report.tookAlongside
        return .storyboard(path: vtt, file: Self.relative(vtt, to: planned[.manifest]),
                           width: report.frames.first?.width ?? 0, height: report.frames.first?.height ?? 0,
                           frames: report.frames.count, sheets: report.files)
    }

    /// The preview written to `path`.
    private func writePreview(_ made: Preview, settings: IngestRecipe.PreviewSettings, to path: String,
                              outputs: any JobOutputs, planned: [IngestOutput: String],
                              warnings: inout [String]) throws -> IngestManifest.Entry {
        warnings += made.warnings.filter { !warnings.contains($0) }
        let descriptor = try outputs.open(path, namedByUser: false)
        try FileSystem.writeAll(made.bytes, to: descriptor, target: path)
        try outputs.finish(descriptor)
        return .preview(path: path, file: Self.relative(path, to: planned[.manifest]), width: made.width,
                        height: made.height, format: settings.format.rawValue, bytes: made.bytes.count,
                        frames: made.frameCount, milliseconds: made.milliseconds)
    }

    /// `path` from the manifest's folder: what a site serving the folder puts in a URL, however
    /// `--out-dir` was spelt. Both are the plan's paths under one folder, so their common part is text.
    static func relative(_ path: String, to manifest: String?) -> String {
        guard let manifest else { return path }
        let from = manifest.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        let to = path.split(separator: "/", omittingEmptySubsequences: false)
        var common = 0
        while common < from.count, common < to.count - 1, from[from.startIndex + common] == to[common] { common += 1 }
        return (Array(repeating: "..", count: from.count - common) + to[common...].map(String.init)).joined(separator: "/")
    }

    private func storyboardOptions(_ settings: IngestRecipe.StoryboardSettings) -> StoryboardOptions {
        var storyboard = StoryboardOptions()
        storyboard.selection = settings.selection
        storyboard.tiling = .sheets(columns: settings.columns, rows: settings.rows)
        storyboard.maxWidth = settings.width
        storyboard.format = settings.format
        storyboard.encoding.jpegQuality = settings.quality
        storyboard.encoding.threads = options.threads
        storyboard.output = options.output
        storyboard.limits = options.limits
        storyboard.threads = options.threads
        return storyboard
    }

    private func previewOptions(_ settings: IngestRecipe.PreviewSettings) -> PreviewOptions {
        var preview = PreviewOptions()
        preview.segments = settings.segments
        preview.segmentLength = settings.seconds
        preview.fps = settings.fps
        preview.maxWidth = settings.width
        preview.format = settings.format
        preview.quality = settings.quality
        preview.output = options.output
        preview.limits = options.limits
        preview.threads = options.threads
        return preview
    }

}

extension Ingester {
    /// The upload as `strip` writes it: its bytes, the position (unless `--location keep`), serials,
    /// owner and maker notes removed in place.
    func writeStrippedOriginal(of file: InputFile, probe: ProbeResult, to path: String, outputs: any JobOutputs,
                               planned: [IngestOutput: String]) throws -> IngestManifest.Entry {
        let edits = try MetadataStripper(removing: strippedGroups).edits(for: file)
        guard let size = file.size else { throw StripError.notAFile }
        let descriptor = try outputs.open(path, namedByUser: false)
        try edits.write(file, size: size, to: descriptor, target: path)
        var seen: Set<String> = []
        return .original(path: path, file: Self.relative(path, to: planned[.manifest]), width: probe.width ?? 0, height: probe.height ?? 0,
                         format: probe.format, bytes: size + edits.sizeChange, removed: edits.removed.filter { seen.insert($0).inserted })
    }

    /// What the stripped original and a Motion Photo's video lose: strip's default, the position
    /// kept with `--location keep`.
    var strippedGroups: Set<StripGroup> {
        options.includesGPS ? StripGroup.removedByDefault.subtracting([.location]) : StripGroup.removedByDefault
    }

    /// A Motion Photo's video (`probe`'s `motion_photo`) as a file of its own, stripped as the
    /// original is, and its preview as the photo's: a site shows the photo and, on hover, its motion.
    func motionOutputs(of file: InputFile, at range: Range<Int>, outputs: any JobOutputs, planned: [IngestOutput: String],
                       warnings: inout [String]) throws -> [IngestManifest.Entry] {
        let edits = try MetadataStripper(removing: strippedGroups).edits(for: file, videoAt: range)
        guard let size = file.size else { throw StripError.notAFile }
        var entries: [IngestManifest.Entry] = []
        if let path = planned[.motionVideo] {
            let descriptor = try outputs.open(path, namedByUser: false)
            try edits.write(file, size: size, part: range, to: descriptor, target: path)
            var seen: Set<String> = []
            entries.append(.motionVideo(path: path, file: Self.relative(path, to: planned[.manifest]), bytes: range.count + edits.sizeChange,
                                        removed: edits.removed.filter { seen.insert($0).inserted }))
        }
        if let settings = options.recipe.preview, let path = planned[.preview] {
            if let preview = motionPreview(of: file, at: range, edits: edits, size: size, settings: settings, warnings: &warnings) {
                entries.append(try writePreview(preview, settings: settings, to: path, outputs: outputs, planned: planned, warnings: &warnings))
            }
        }
        return entries
    }

    /// The largest Motion Photo video a preview is made of: its copy is held in memory (a phone's
    /// is a few seconds, 2 to 10 MB).
    static let mostMotionVideoBytesPreviewed = 64 << 20

    /// A Motion Photo's preview, of its video as written (stripped): the video copied into a file in
    /// memory, which a worker that may open no file can make, and read as any video is. nil, with
    /// a warning, where it makes none: the still's outputs stand without it.
    private func motionPreview(of file: InputFile, at range: Range<Int>, edits: ByteEdits, size: Int,
                               settings: IngestRecipe.PreviewSettings, warnings: inout [String]) -> Preview? {
        guard range.count <= Self.mostMotionVideoBytesPreviewed else {
            warnings.append("the motion video (\(range.count) bytes) is larger than the \(Self.mostMotionVideoBytesPreviewed) bytes a preview is made of: no preview")
            return nil
        }
        do {
            // A worker chosen for pictures has not loaded FFmpeg and, confined, cannot.
            try FFmpegLibraries.load()
            let video = try InputFile.inMemory(displayName: "\(file.displayName)'s motion video") { descriptor in
                try edits.write(file, size: size, part: range, to: descriptor, target: "the motion video's copy in memory")
            }
            return try Previewer(options: previewOptions(settings)).makePreview(from: video)
        } catch {
            warnings.append("the motion video gives no preview: \(error)")
            return nil
        }
    }
}
