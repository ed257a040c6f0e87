import FFmpeg
import FileIO
import ImageCodecs
import ImageCropping
import Imaging
import MediaProbe
import TIFFCodec
import VideoThumbnails

/// What kind of failure an error of the work's modules is, told the same way in this process and
/// across a worker's socket, where the error's type does not travel: the library's `MediaError`
/// has a case for each.
public enum JobErrorKind: String, Sendable, CaseIterable {
    case unreadable, unsupportedFormat, damaged, overLimit, invalidRequest, noVideo, writeFailed, cancelled

    public init(classifying error: any Error) {
        switch error {
        case is CancellationError:
            self = .cancelled
        case is DecodeLimitError, is ThumbnailSizeError:
            self = .overLimit
        case let crop as CropError:
            if case .tooMuchMemory = crop { self = .overLimit } else { self = .invalidRequest }
        case let video as VideoError:
            switch video {
            case .noVideoStream, .noCoverArt: self = .noVideo
            case .noSuchVideoStream, .unknownDuration: self = .invalidRequest
            case .noDecodableFrame: self = .damaged
            }
        case is PictureError:
            self = .unsupportedFormat
        case let tiff as TIFFError where tiff.isUnsupportedLayout:
            self = .unsupportedFormat
        case let probe as ProbeError:
            if case .empty = probe { self = .unsupportedFormat } else { self = .noVideo }
        case InputError.tooSlow:
            self = .overLimit
        case InputError.empty:
            // As an empty file is to probe: no format at all.
            self = .unsupportedFormat
        case is SystemError, is InputError:
            self = .unreadable
        case is OutputError:
            self = .writeFailed
        case let ffmpeg as FFmpegError where ffmpeg.isUnrecognisedFormat:
            self = .unsupportedFormat
        default:
            self = .damaged
        }
    }
}
