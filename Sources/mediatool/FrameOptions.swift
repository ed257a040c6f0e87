import ArgumentParser

/// What the frame options say in one subcommand's help.
protocol FrameHelp {
    static var width: String { get }
    static var height: String { get }
    static var deinterlace: String { get }
    static var stream: String { get }
}

enum ThumbnailFrameHelp: FrameHelp {
    static let width = "Fit inside this width (aspect kept), enlarging too (see --size, which does not)."
    static let height = "Fit inside this height (aspect kept), enlarging too."
    static let deinterlace = "Keep an interlaced frame's two fields woven, instead of deinterlacing it."
    static let stream = "The video stream, counted from 0 among the file's video streams (default: the one FFmpeg takes for the main one)."
}

enum StoryboardFrameHelp: FrameHelp {
    static let width = "Fit each cell inside this width (default 160 when no --height is given)."
    static let height = "Fit each cell inside this height."
    static let deinterlace = "Keep interlaced frames' fields woven, instead of deinterlacing them."
    static let stream = "The video stream, counted from 0 among the file's video streams."
}

/// How frames of a video become pictures, as thumbnail and storyboard share it: which stream, the
/// size to fit, the display matrix, deinterlacing.
struct FrameOptions<Help: FrameHelp>: ParsableArguments {
    @Option(help: ArgumentHelp(Help.width))
    var width: Int?

    @Option(help: ArgumentHelp(Help.height))
    var height: Int?

    @Flag(help: "Keep the coded orientation: ignore the display matrix.")
    var noRotate = false

    @Flag(help: ArgumentHelp(Help.deinterlace))
    var noDeinterlace = false

    @Option(name: .customLong("stream"), help: ArgumentHelp(Help.stream, valueName: "N"))
    var videoStream: Int?

    func validate() throws {
        if let width, width < 1 { throw ValidationError("--width must be 1 or more.") }
        if let height, height < 1 { throw ValidationError("--height must be 1 or more.") }
        if let videoStream, videoStream < 0 { throw ValidationError("--stream counts from 0.") }
    }
}
