import ArgumentParser
import ImageCodecs

extension ImageFormat: ExpressibleByArgument {}

/// How pictures are written, shared by the subcommands that write them.
struct EncodingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("png, jpeg or webp (default: from the extension of -o or --name, else png).", valueName: "format"))
    var format: ImageFormat?

    @Option(help: "JPEG and lossy WebP quality, 1 to 100.")
    var quality: Int = 90

    @Flag(help: "Write WebP without loss.")
    var lossless = false

    @Option(name: .customLong("png-compression"), help: "PNG zlib compression level, 0 (fastest) to 9 (smallest).")
    var compression: Int = PNGImageEncoder.defaultCompressionLevel

    func validate() throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality takes 1 to 100.") }
        guard (0...9).contains(compression) else { throw ValidationError("--png-compression takes 0 to 9.") }
    }

    /// `--lossless` means no loss: WebP writes without loss and PNG always does, but a JPEG would be
    /// re-encoded with loss (a JPEG crop without re-encoding is not built yet), so that is refused.
    func check(for format: ImageFormat) throws {
        if lossless && format == .jpeg {
            throw ValidationError("--lossless writes WebP without loss (PNG is always lossless); a JPEG cannot be written without loss yet.")
        }
    }

    var settings: EncodingSettings {
        var settings = EncodingSettings()
        settings.jpegQuality = quality
        settings.webpLossless = lossless
        settings.pngCompressionLevel = compression
        return settings
    }
}
