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

    var settings: EncodingSettings {
        var settings = EncodingSettings()
        settings.jpegQuality = quality
        settings.webpLossless = lossless
        settings.pngCompressionLevel = compression
        return settings
    }
}
