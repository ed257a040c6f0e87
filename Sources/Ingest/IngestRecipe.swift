import FFmpeg
import ImageCodecs
import Imaging
import PictureDigests
import Previews
import Storyboards
import VideoThumbnails

/// What `ingest` makes of each upload: renditions of a picture (and of a video's poster frame), a
/// video's storyboard and hover preview, placeholders and perceptual hashes, and how each is named.
/// Read from a recipe file by `IngestRecipe.read`, which documents the schema; `standard` without one.
public struct IngestRecipe: Sendable, Codable, Equatable {
    /// One picture the recipe makes of each upload.
    public struct Rendition: Sendable, Codable, Equatable {
        /// The name the recipe gives it (`{name}` in file names): lower-case letters, digits, `_`, `-`.
        public var name: String
        /// Its box (as `thumbnail --size` reads it), whether it may enlarge, and its own fill.
        public var size: ThumbnailSize
        public var format: ImageFormat
        /// 1 to 100, for JPEG and lossy WebP.
        public var quality: Int

        public init(name: String, size: ThumbnailSize, format: ImageFormat = .jpeg, quality: Int = IngestRecipe.defaultQuality) {
            self.name = name
            self.size = size
            self.format = format
            self.quality = quality
        }
    }

    public struct StoryboardSettings: Sendable, Codable, Equatable {
        public var selection: FrameSelection = .count(100)
        public var width = StoryboardOptions.defaultCellWidth
        public var columns = 10
        public var rows = 10
        public var format: ImageFormat = .jpeg
        public var quality = 90
        public init() {}
    }

    public struct PreviewSettings: Sendable, Codable, Equatable {
        public var segments = 4
        public var seconds = 1.0
        public var fps = 10.0
        public var width = 320
        public var format: PreviewFormat = .webp
        public var quality = 75
        public init() {}
    }

    /// A video's web video (`mediatool transcode`): H.264 and AAC in an MP4 that every browser
    /// plays, made from the same decode as the poster, storyboard and preview.
    public struct WebVideoSettings: Sendable, Codable, Equatable {
        /// Where the upload plays in browsers as it is, it is not made again unless `always`.
        public var always = false
        /// An HLS ladder (as `transcode --hls` makes it) instead of one MP4.
        public var hls = false
        /// The most the picture's shorter side may be, upright (1080p, portrait or landscape):
        /// larger videos are scaled down, never up.
        public var shorterSide = 1080
        public var preset = "veryfast"
        public var crf = 23.0
        public init() {}
    }

    /// File names, under `--out-dir` at the input's relative path. `{stem}`, `{ext}` and `{dir}`
    /// are the input's; a rendition's also has `{name}`, `{size}` and `{format}` (its extension).
    /// The input's extension is in each: an iPhone's Live Photo is IMG_0001.HEIC and IMG_0001.MOV
    /// side by side.
    public struct Names: Sendable, Codable, Equatable {
        public var rendition = "{stem}.{ext}.{name}.{format}"
        public var storyboard = "{stem}.{ext}.storyboard.vtt"
        public var preview = "{stem}.{ext}.preview.{format}"
        public var webVideo = "{stem}.{ext}.web.mp4"
        /// An HLS ladder's master playlist, its renditions beside it (`.720p.mp4`, `.720p.m3u8`).
        public var hls = "{stem}.{ext}.m3u8"
        public var manifest = "{stem}.{ext}.json"
        /// A Motion Photo's video, as a file of its own (stripped as the original is).
        public var motionVideo = "{stem}.{ext}.motion.mp4"
        /// The upload itself, stripped of where and by whom (`"original": true`).
        public var original = "{stem}.stripped.{ext}"
        public init() {}
    }

    public var renditions: [Rendition]
    /// Which frame of a video its renditions, placeholders and hashes are of.
    public var posterTime: ThumbnailTime = .posterFrame
    /// nil: no storyboard.
    public var storyboard: StoryboardSettings? = StoryboardSettings()
    /// nil: no preview.
    public var preview: PreviewSettings? = PreviewSettings()
    /// nil: no web video.
    public var webVideo: WebVideoSettings? = WebVideoSettings()
    public var digests = PictureDigests.Request()
    public var names = Names()
    /// Write the upload itself beside its renditions, stripped as `strip` strips it (its pixels and
    /// samples as uploaded, without position, serials, owner or maker notes): what a site that
    /// offers the original file serves.
    public var writesStrippedOriginal = false

    /// WordPress's: what its sites have been shown at for years, so that a theme finds its sizes.
    public static let defaultQuality = 82

    /// The renditions' sizes, each once, in their order: a rendition asked in several formats
    /// (`"formats"`) is reduced once and written in each.
    public var renditionSizes: [ThumbnailSize] {
        var sizes: [ThumbnailSize] = []
        for rendition in renditions where !sizes.contains(rendition.size) { sizes.append(rendition.size) }
        return sizes
    }

    public init(renditions: [Rendition]) {
        self.renditions = renditions
    }

    /// WordPress's six sizes, by its names: `thumbnail` 150x150 filled where the attention is,
    /// `medium` 300, `medium_large` 768 wide, `large` 1024, `1536x1536` and `2048x2048`, never
    /// enlarged; JPEG at WordPress's quality 82 (which flattens transparency on white: a recipe
    /// asks for `webp` or `png` to keep it). A
    /// video's poster in the same sizes, a storyboard and a preview as those subcommands make them
    /// by default, and its web video where the upload is not what browsers play; both
    /// placeholders and both hashes.
    public static let standard = IngestRecipe(renditions: [
        Rendition(name: "thumbnail", size: ThumbnailSize(width: 150, height: 150, fill: .attention)),
        Rendition(name: "medium", size: ThumbnailSize(width: 300, height: 300)),
        Rendition(name: "medium_large", size: ThumbnailSize(width: 768, height: nil)),
        Rendition(name: "large", size: ThumbnailSize(width: 1024, height: 1024)),
        Rendition(name: "1536x1536", size: ThumbnailSize(width: 1536, height: 1536)),
        Rendition(name: "2048x2048", size: ThumbnailSize(width: 2048, height: 2048)),
    ])
}

extension IngestRecipe {
    /// What the recipe needs of memory whatever the upload: a rendition that enlarges to its box
    /// holds that box twice (scaled, then upright), four samples a pixel; a storyboard's sheet of
    /// 16:9 cells holds them all; a preview holds its frames. Past `--max-memory`, no upload can be
    /// ingested, and the run is refused before any is read.
    public var leastMemory: (bytes: Int, what: String) {
        var largest = (bytes: 0, what: "")
        func consider(_ pixels: Double, _ what: String) {
            let bytes = pixels >= Double(Int.max / 2) ? Int.max : Int(pixels)
            if bytes > largest.bytes { largest = (bytes, what) }
        }
        for rendition in renditions where rendition.size.enlarges {
            let width = Double(rendition.size.width ?? rendition.size.height ?? 1), height = Double(rendition.size.height ?? rendition.size.width ?? 1)
            consider(width * height * 4 * 2, "rendition \"\(rendition.name)\" (\(rendition.size.description), enlarged)")
        }
        if let storyboard {
            let cellHeight = (Double(storyboard.width) * 9 / 16).rounded(.up)
            consider(Double(storyboard.columns * storyboard.rows) * Double(storyboard.width) * cellHeight * 4,
                     "a storyboard sheet of \(storyboard.columns)x\(storyboard.rows) cells \(storyboard.width) wide")
        }
        if let preview {
            let height = (Double(preview.width) * 9 / 16).rounded(.up)
            consider(Double(preview.segments) * preview.seconds * preview.fps * Double(preview.width) * height * 4,
                     "a preview of \(preview.segments) x \(preview.seconds) s at \(preview.fps) fps, \(preview.width) wide")
        }
        return largest
    }
}
