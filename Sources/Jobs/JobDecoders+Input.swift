import Batch
import FileIO
import MediaFormats

extension JobDecoders {
    /// What a worker must load for an input that begins with `start`: a picture of the picture
    /// codecs' needs no FFmpeg; anything else may.
    @Sendable public static func forStart(_ start: [UInt8]) -> JobDecoders {
        start.withUnsafeBytes { InputKind.pictureCodec($0) } == nil ? .media : .pictures
    }

    /// As `forStart`, of the input's first bytes.
    @Sendable public static func forInput(_ input: InputFile) -> JobDecoders {
        forStart(Array(((try? input.head()) ?? []).prefix(16)))
    }
}
