import Glibc
import FFmpeg
import FileIO
import ImageCodecs
import Imaging
import Failures

/// Makes the storyboard of a video: its frames at many times from one pass over it, in sprite
/// sheets (or one picture a frame) and a WebVTT file that says which picture previews which time.
public struct Storyboarder: Sendable {
    public let options: StoryboardOptions

    public init(options: StoryboardOptions) {
        self.options = options
    }

    /// The storyboard of an open input: the WebVTT text written to `outputs.primary`, each picture
    /// and the page to an output `outputs` opens; the caller moves them into place.
    /// `alongside`: frames another job wants from the same pass; found when the storyboard decodes
    /// its cells' own frames (its keyframes alone would not serve them), else left to that job.
    /// `pass`: another job's pass over every frame (an ingest's web video), which the storyboard
    /// and `alongside` take their frames from, each frame its own.
    public func makeStoryboard(from file: InputFile, input: String, vtt: String, html: String?, outputs: any JobOutputs,
                               alongside: FramesAlongside? = nil, pass: SharedPass? = nil) throws -> StoryboardReport {
        // One keyframe gains nothing from frame threads (see Thumbnailer); a run of frames does.
        var video = try pass?.video ?? VideoSource(file: file, threads: options.mode == .keyframe ? 1 : options.threads,
                                                   videoStream: options.videoStream, limits: options.limits)
        // A picture FFmpeg reads (a GIF, a PNG) is no video to scrub, as probe and thumbnail say.
        if video.isPicture { throw StoryboardError.picture }
        let duration = video.durationSeconds
        let from = try options.from.map { try Self.seconds($0, duration: duration) } ?? 0
        guard let to = try options.to.map({ try Self.seconds($0, duration: duration) }).map({ min($0, duration ?? $0) }) ?? duration else {
            throw StoryboardError.unknownDuration
        }
        let schedule = try FrameSchedule(selection: options.selection, from: from, to: to)
        let names = StoryboardNames(vtt: vtt, fileExtension: options.format.fileExtension, tiling: options.tiling,
                                    frameCount: schedule.entries.count)
        let paths = [vtt] + (html.map { [$0] } ?? []) + (0..<names.fileCount).map(names.path)
        try refuseBeforeWork(paths, input: file, vtt: vtt, html: html)
        // Cells are different moments: where keyframes are sparser than the cells (a phone clip, an
        // encoder's default of one every 250 frames), the keyframes would repeat, and each cell's
        // own frame is decoded instead, in the same one pass.
        var mode = pass == nil ? options.mode : .exact
        if mode == .keyframe, !options.keyframesMayRepeat, Self.keyframesRepeat(video.indexedKeyframeSeconds(), at: schedule.entries.map(\.time)) {
            mode = .exact
            video.giveBackFrameMemory()
            video = try VideoSource(file: file, threads: options.threads, videoStream: options.videoStream, limits: options.limits)
        }

        var warnings: [String] = []
        if let colourWarning = video.colourWarning { warnings.append(colourWarning) }
        var sheets: [String] = []
        var frames: [StoryboardReport.Frame] = []
        var sheet: (index: Int, pixels: SpriteSheet)?
        var cellSize: DisplayGeometry?
        var lastCell: PixelBuffer?
        /// The cell that showed the video's last frame at a time past it: the storyboard ends
        /// there, whatever duration the file claims (100 frames claiming 61,234 s wrote 622 sheets).
        var lastFrameCell: Int?
        let encoder = ImageEncoders.encoder(for: options.format, settings: options.encoding)

        func finishSheet() throws {
            guard var current = sheet else { return }
            if let lastFrameCell, names.place(ofFrame: lastFrameCell).file == current.index {
                current.pixels = current.pixels.keepingCells(names.place(ofFrame: lastFrameCell).cell + 1)
            }
            // The encoder's memory beside the decoder's, before the sheet's file is opened.
            let reservation = try options.format.reserveEncoder(for: [current.pixels.pixels], settings: options.encoding, maxMemory: options.limits.maxMemory,
                                                                budget: options.limits.budget, beside: video.heldBytes)
            // Named after the WebVTT file, not by the user: a link in their place is never followed.
            let descriptor = try outputs.open(names.path(current.index), namedByUser: false)
            warnings += try withExtendedLifetime(reservation) { try encoder.write(current.pixels.pixels, metadata: PictureMetadata(), to: descriptor) }
            try outputs.finish(descriptor)
            sheets.append(names.path(current.index))
            sheet = nil
        }

        var repeated = 0
        func place(_ found: VideoSource.FrameForTime) throws {
            guard lastFrameCell == nil else { return }
            let frame = found.located.frame
            if found.located.isPastEnd { lastFrameCell = found.index }
            if found.repeatsPrevious && !found.located.isPastEnd { repeated += 1 }
            // Sheets of one picture again and again: two real frames 99990 s apart wrote 1001 files
            // (429 MB) with --every 1, cells the file's timeline made. Past a thousand repeats, nine
            // cells in ten, it stops. A --count is the user's own number, made as asked.
            if case .every = options.selection, repeated > Self.mostRepeats && repeated * 10 > (found.index + 1) * 9 {
                throw StoryboardError.mostlyRepeats(repeated: repeated, cells: found.index + 1)
            }
            if cellSize == nil {
                let width = options.maxWidth ?? (options.maxHeight == nil ? StoryboardOptions.defaultCellWidth : nil)
                let shown = video.display(of: frame, upright: options.appliesOrientation, maxWidth: width, maxHeight: options.maxHeight)
                if let warning = shown.warning { warnings.append(warning) }
                cellSize = shown.geometry
            }
            let cell: PixelBuffer
            if found.repeatsPrevious, let lastCell {
                cell = lastCell
            } else {
                // Every cell the size of the first, whatever size later frames are coded at.
                cell = try video.uprightPixels(of: frame, cellSize!, deinterlaces: options.deinterlaces, threads: options.threads)
            }
            lastCell = cell
            let (fileIndex, cellIndex) = names.place(ofFrame: found.index)
            if sheet?.index != fileIndex {
                try finishSheet()
                sheet = (fileIndex, try newSheet(of: cell, cells: names.frameCount(inFile: fileIndex)))
            }
            sheet!.pixels.place(cell, at: cellIndex)
            let rect = sheet!.pixels.rect(ofCell: cellIndex)
            frames.append(StoryboardReport.Frame(time: schedule.entries[found.index].time, shown: found.located.seconds,
                                                 file: names.path(fileIndex), x: rect.x, y: rect.y,
                                                 width: rect.width, height: rect.height))
        }
        let tookAlongside = try walkCells(at: schedule.entries.map(\.time), of: video, mode: mode, pass: pass, alongside: alongside,
                                          place: place, reachedTheLastFrame: { lastFrameCell != nil })
        try finishSheet()
        warnings += endWarnings(cells: schedule.entries.count, frames: frames, lastFrameCell: lastFrameCell, claimedEnd: to,
                                repeated: repeated, mode: mode)
        let track = track(of: schedule, frames: frames, lastFrameCell: lastFrameCell)
        // The index is moved into place last: a player that finds it finds every file it names.
        try FileSystem.writeAll(Array(track.text.utf8), to: outputs.primary, target: vtt)
        if let html {
            let page = try outputs.open(html, namedByUser: options.output.isNamedByUser)
            let text = try pageText(input: input, vtt: vtt, html: html, track: track, duration: duration ?? to)
            try FileSystem.writeAll(Array(text.utf8), to: page, target: html)
            try outputs.finish(page)
        }
        var report = StoryboardReport(vtt: vtt, files: sheets, frames: frames, warnings: warnings)
        report.tookAlongside = tookAlongside
        return report
    }

    /// Hands `place` each cell's frame, from `pass` where another job decodes every frame, else
    /// from the storyboard's own walk; true when the frames `alongside` were taken on the way.
    private func walkCells(at cellTimes: [Double], of video: VideoSource, mode: VideoSource.SeekMode, pass: SharedPass?,
                           alongside: FramesAlongside?, place: @escaping (VideoSource.FrameForTime) throws -> Void,
                           reachedTheLastFrame: () -> Bool) throws -> Bool {
        if let pass {
            let cells = FramesAlongside(times: { _ in cellTimes }, take: { found, _ in try place(found) })
            try pass.run([cells] + (alongside.map { [$0] } ?? []))
            return alongside != nil
        }
        if let alongside, mode == .exact {
            let theirs = try alongside.times(video)
            // The frames alongside are taken to the end; cells past the last frame are not made.
            try video.frames(atSeconds: [cellTimes, theirs], mode: .exact) { list, found in
                if list == 0 { try place(found) } else { try alongside.take(found, video) }
            }
            return true
        }
        do {
            try video.frames(atSeconds: cellTimes, mode: mode) { found in
                try place(found)
                if reachedTheLastFrame() { throw ReachedTheLastFrame() }
            }
        } catch is ReachedTheLastFrame {}
        return false
    }

    /// An empty sheet of `cells` cells the size of `cell`, as the tiling lays them out; refused
    /// past the largest side the format holds (WebP 16383, JPEG 65500) or 100 MP.
    private func newSheet(of cell: PixelBuffer, cells: Int) throws -> SpriteSheet {
        let columns: Int, rows: Int
        switch options.tiling {
        case .sheets(let c, let r): (columns, rows) = (c, r)
        case .none: (columns, rows) = (1, 1)
        }
        let channels = options.format.descriptor.holdsAlpha ? max(3, cell.channels) : 3
        let side = min(options.format.largestSide, 65500)
        let used = min(columns * rows, cells)
        let sheetWidth = cell.width * min(columns, used), sheetHeight = cell.height * ((used + columns - 1) / columns)
        guard sheetWidth <= side, sheetHeight <= side, sheetWidth * sheetHeight <= 100_000_000 else {
            throw StoryboardError.sheetTooLarge(width: sheetWidth, height: sheetHeight, limit: side)
        }
        return SpriteSheet(cellWidth: cell.width, cellHeight: cell.height, columns: columns, rows: rows, cells: cells, channels: channels)
    }

    /// What the storyboard says of its end and its repeats: the frames that ended before the
    /// duration the file claims (`claimedEnd`), and cells that show the one before.
    private func endWarnings(cells: Int, frames: [StoryboardReport.Frame], lastFrameCell: Int?, claimedEnd: Double,
                             repeated: Int, mode: VideoSource.SeekMode) -> [String] {
        var warnings: [String] = []
        if let lastFrameCell, lastFrameCell + 1 < cells {
            warnings.append("the video's frames end at \(WebVTT.timestamp(WebVTT.milliseconds(frames[lastFrameCell].shown))) though it claims "
                            + "\(WebVTT.timestamp(WebVTT.milliseconds(claimedEnd))): \(lastFrameCell + 1) of the \(cells) cells were made, "
                            + "the last showing the last frame to the end")
        } else if lastFrameCell != nil {
            warnings.append("1 of the times lies past the last frame, which it shows")
        }
        // Asked for with --keyframe, repeats are no news.
        if repeated > 0 && !(mode == .keyframe && options.keyframesMayRepeat) {
            warnings.append(mode == .exact
                ? "\(repeated) of the \(cells) cells show the frame of the cell before: the video has fewer frames than cells there (ask for fewer: a storyboard's count, or a longer every)"
                : "\(repeated) of the \(cells) cells show the keyframe of the cell before: --exact gives each its own frame")
        }
        return warnings
    }

    /// The WebVTT index of the cells: each cue its cell's place (a sheet's rect, or a file).
    private func track(of schedule: FrameSchedule, frames: [StoryboardReport.Frame], lastFrameCell: Int?) -> WebVTT {
        var track = WebVTT()
        for (index, (entry, frame)) in zip(schedule.entries, frames).enumerated() {
            let name = WebVTT.urlPath(String(frame.file.split(separator: "/").last ?? Substring(frame.file)))
            let isSheet = options.tiling != .none
            // The cell of the last frame shows until the end the file claims.
            let end = index == lastFrameCell ? schedule.entries.last!.end : entry.end
            track.cues.append(WebVTT.Cue(start: entry.start, end: end, url: Self.url(name, base: options.urlBase),
                                         rect: isSheet ? (frame.x, frame.y, frame.width, frame.height) : nil))
        }
        return track
    }

    /// Repeated cells past which a storyboard of nine repeats in ten cells is refused.
    static let mostRepeats = 1000

    /// Whether two of `times` (ascending) fall after the same keyframe of `keyframes` (ascending,
    /// from the index; none when the file has no index, which tells nothing).
    static func keyframesRepeat(_ keyframes: [Double], at times: [Double]) -> Bool {
        guard !keyframes.isEmpty else { return false }
        var next = 0
        var previous: Int?
        for time in times {
            while next < keyframes.count && keyframes[next] <= time { next += 1 }
            let current = next - 1
            if current == previous { return true }
            previous = current
        }
        return false
    }

    /// The page's text: every URL relative to the page's folder (or under `--vtt-base`).
    private func pageText(input: String, vtt: String, html: String, track: WebVTT, duration: Double) throws -> String {
        let folder = html.lastIndex(of: "/").map { $0 == html.startIndex ? "/" : String(html[..<$0]) } ?? "."
        func relative(_ path: String) throws -> String {
            guard let url = StoryboardPage.relativeURL(of: path, from: folder) else { throw OutputError.missingFolder(path: html, folder: folder) }
            return url
        }
        let vttFolder = vtt.lastIndex(of: "/").map { String(vtt[...$0]) } ?? ""
        let pageCues = try track.cues.map { cue in
            // Names relative to the WebVTT file become relative to the page; absolute URLs stay.
            let url = options.urlBase == nil ? try relative(vttFolder + Self.percentDecoded(cue.url)) : cue.url
            return WebVTT.Cue(start: cue.start, end: cue.end, url: url, rect: cue.rect)
        }
        let name = String(input.split(separator: "/").last ?? Substring(input))
        return StoryboardPage(title: "Storyboard of \(name)", videoURL: try relative(input), vttURL: try relative(vtt),
                              vttText: track.text, cues: pageCues, duration: duration).html
    }

    private static func percentDecoded(_ url: String) -> String {
        var bytes: [UInt8] = []
        var rest = Array(url.utf8)[...]
        while let byte = rest.first {
            if byte == UInt8(ascii: "%"), rest.count >= 3,
               let value = UInt8(String(decoding: rest.dropFirst().prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                rest = rest.dropFirst(3)
            } else {
                bytes.append(byte)
                rest = rest.dropFirst()
            }
        }
        return PathBytes.string(bytes)
    }

    /// Refuses, before anything is decoded, outputs that exist (without `--overwrite`) and an
    /// output that is the input.
    private func refuseBeforeWork(_ paths: [String], input: InputFile, vtt: String, html: String?) throws {
        // The page is named by the user; the others are made here, distinct by their names.
        if let html, let page = Self.place(of: html) {
            var others = paths
            if let own = others.firstIndex(of: html) { others.remove(at: own) }
            for path in others where Self.place(of: path) == page {
                throw StoryboardError.pageNamedAsAnOutput(page: html, output: path)
            }
        }
        for path in paths {
            if RunInputs.contains(path: path) { throw OutputError.wouldOverwriteInput(path: path) }
            guard let status = FileSystem.linkStatus(path) else { continue }
            if !options.output.overwrite { throw OutputError.exists(path: path) }
            // Only what the user named may be a link to follow; a picture's name is made here.
            if path != vtt && path != html && status.st_mode & S_IFMT == S_IFLNK {
                throw OutputError.notRegular(path: path, kind: "a symbolic link")
            }
        }
    }

    /// Where a file lands: its folder, resolved, and its name's bytes; nil when the folder is missing.
    private static func place(of path: String) -> [UInt8]? {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return FileSystem.realPath(folder).map { PathBytes.bytes($0) + [0] + PathBytes.bytes(name) }
    }

    private static func url(_ name: String, base: String?) -> String {
        guard let base, !base.isEmpty else { return name }
        return base.hasSuffix("/") ? base + name : base + "/" + name
    }

    private static func seconds(_ time: TimeSpec, duration: Double?) throws -> Double {
        switch time {
        case .seconds(let value): return value
        case .fraction(let fraction):
            guard let duration else { throw StoryboardError.unknownDuration }
            return fraction * duration
        }
    }
}

/// Thrown from the pass over the cells once one showed the last frame: no cell comes after it.
private struct ReachedTheLastFrame: Error {}

extension ReachedTheLastFrame: ClassifiedError {
    var failureKind: FailureKind { .internalFailure }
}
