import ArgumentParser
import ImageCodecs
import ImageCropping
import JPEGCodec

extension ImageFormat: ExpressibleByArgument {}

extension ChromaSubsampling: ExpressibleByArgument {
    /// The three samplings a JPEG is written with (440 is read, never written).
    public init?(argument: String) {
        guard ["420", "422", "444"].contains(argument) else { return nil }
        self.init(rawValue: argument)
    }

    public static var allValueStrings: [String] { ["420", "422", "444"] }
}

/// What the encoding options say in one subcommand's help: each says what it does there.
protocol EncodingHelp {
    static var format: String { get }
    static var subsampling: String { get }
    static var lossless: String { get }
}

enum CropEncodingHelp: EncodingHelp {
    static let format = "png, jpeg, webp or avif (default: from the extension of -o or --name, else png)."
    static let subsampling = "JPEG chroma sampling: 420, 422 or 444 (default: a JPEG source's own, else 420)."
    static let lossless = "No loss: WebP written without loss; a JPEG of a JPEG made of the source's own blocks, cropped on their grid and turned upright without decoding (--lossless=expand widens a rect off the grid to the nearest one on it)."
}

enum ThumbnailEncodingHelp: EncodingHelp {
    static let format = "png, jpeg, webp or avif (default: from the extension of -o or --name, else png)."
    static let subsampling = "JPEG chroma sampling: 420, 422 or 444 (default: 420)."
    static let lossless = "WebP written without loss."
}

enum StoryboardEncodingHelp: EncodingHelp {
    static let format = "The sheets' format: jpeg, png, webp or avif (default: jpeg)."
    static let subsampling = "JPEG chroma sampling: 420, 422 or 444 (default: 420)."
    static let lossless = "WebP written without loss."
}

/// How pictures are written, shared by the subcommands that write them; `Help` says it in each one's words.
struct EncodingOptions<Help: EncodingHelp>: ParsableArguments {
    @Option(help: ArgumentHelp(Help.format, valueName: "format"))
    var format: ImageFormat?

    @Option(help: "JPEG, lossy WebP and AVIF quality, 1 to 100 (default: 90). AVIF's is mapped to look as a JPEG of the same quality does (docs/avif.md).")
    var quality: Int?

    @Option(help: "AVIF's encoding effort, 0 (fastest) to 9 (smallest files), as libvips's (default: 3).")
    var effort: Int?

    @Option(help: ArgumentHelp(Help.subsampling, valueName: "420|422|444"))
    var subsampling: ChromaSubsampling?

    @Flag(help: "Write progressive JPEG.")
    var progressive = false

    @Flag(help: ArgumentHelp(Help.lossless))
    var lossless = false

    /// `--lossless=expand`, which `MediaTool.main` spells this way for the parser.
    @Flag(name: .customLong("lossless-expand"), help: .hidden)
    var losslessExpand = false

    @Option(name: .customLong("png-compression"), help: "PNG zlib compression level, 0 (fastest) to 9 (smallest).")
    var compression: Int = PNGImageEncoder.defaultCompressionLevel

    func validate() throws {
        if let quality, !(1...100).contains(quality) { throw ValidationError("--quality takes 1 to 100.") }
        guard (0...9).contains(compression) else { throw ValidationError("--png-compression takes 0 to 9.") }
        if let effort, !(0...9).contains(effort) { throw ValidationError("--effort takes 0 to 9.") }
    }

    /// The lossless JPEG crop asked for: `--lossless` (or `--lossless=expand`) with JPEG output.
    func losslessJPEG(for format: ImageFormat) -> LosslessAlignment? {
        guard format == .jpeg, lossless || losslessExpand else { return nil }
        return losslessExpand ? .expand : .exact
    }

    /// What cannot go together for `format`: JPEG without loss only where the source is a JPEG whose
    /// blocks can be kept (`canKeepJPEGBlocks`), and then with nothing that re-encodes.
    func check(for format: ImageFormat, canKeepJPEGBlocks: Bool) throws {
        if subsampling != nil && format != .jpeg { throw ValidationError("--subsampling is for JPEG output, not \(format.rawValue).") }
        if effort != nil && format != .avif { throw ValidationError("--effort is for AVIF output, not \(format.rawValue).") }
        if format == .avif && (lossless || losslessExpand) {
            throw ValidationError("--lossless: AVIF is always written with loss here; give --format png or webp for a picture without loss.")
        }
        guard losslessJPEG(for: format) != nil else {
            if losslessExpand { throw ValidationError("--lossless=expand is for JPEG crops of JPEG pictures.") }
            return
        }
        guard canKeepJPEGBlocks else {
            throw ValidationError("--lossless writes WebP without loss (PNG is always lossless); a JPEG made from decoded pixels always loses some.")
        }
        if quality != nil { throw ValidationError("--quality re-encodes; --lossless keeps the JPEG's own blocks.") }
        if subsampling != nil { throw ValidationError("--subsampling re-encodes; --lossless keeps the JPEG's own sampling.") }
    }

    var settings: EncodingSettings {
        var settings = EncodingSettings()
        settings.jpegQuality = quality ?? 90
        settings.jpegSubsampling = subsampling
        settings.jpegProgressive = progressive
        settings.webpLossless = lossless || losslessExpand
        settings.pngCompressionLevel = compression
        if let effort { settings.avifEffort = effort }
        return settings
    }
}
