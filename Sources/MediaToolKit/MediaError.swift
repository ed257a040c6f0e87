internal import Failures
internal import FFmpeg
internal import Jobs
internal import Sandbox
internal import FileIO
internal import ImageCodecs
internal import ImageCropping
internal import Imaging
internal import MediaProbe
internal import Reporting
internal import VideoThumbnails
internal import BinaryArrays
internal import TIFFCodec

/// Why a call failed, in the words the command line prints but for the settings it names, which are
/// the library's (`maxPixels` where the tool says `--max-pixels`): `description` is its error line
/// without the leading `mediatool: `, so a service can log or return what the tool would have said.
///
/// Each case carries the name of the input (the file's path, or the name given to bytes or a
/// descriptor) and the reason, one line.
public enum MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read: missing, a folder, no permission, shrank while read.
    case unreadable(file: String, reason: String)
    /// Not a picture or video this library reads.
    case unsupportedFormat(file: String, reason: String)
    /// A file of a known format whose contents are broken or that its decoder refused.
    case damaged(file: String, reason: String)
    /// Refused before decoding: its size or the memory it needs is over the configuration's limits.
    case overLimit(file: String, reason: String)
    /// The request does not fit the file: a rect outside the picture, a time in a file without a
    /// duration, a video stream that is not there, an empty list of sizes.
    case invalidRequest(file: String, reason: String)
    /// The file has no video to take a frame from (a sound file, a picture given to a video call).
    case noVideo(file: String, reason: String)
    /// An output could not be written (the folder, the disk, an existing file not to be replaced).
    case writeFailed(file: String, reason: String)
    /// The task was cancelled before the work finished; nothing was written.
    case cancelled(file: String)
    /// The installation, not the input: no `mediatool` worker found, one of another version, one
    /// that could not confine itself on this kernel, an FFmpeg library missing. The reason says
    /// how to mend it; every call will fail alike until it is mended.
    case deployment(file: String, reason: String)
    /// A fault of mediatool's own, never the input's: worth a bug report with the reason.
    case internalFailure(file: String, reason: String)

    /// The input (or output) the error is about.
    public var file: String {
        switch self {
        case .unreadable(let file, _), .unsupportedFormat(let file, _), .damaged(let file, _), .overLimit(let file, _),
             .invalidRequest(let file, _), .noVideo(let file, _), .writeFailed(let file, _), .cancelled(let file),
             .deployment(let file, _), .internalFailure(let file, _):
            return file
        }
    }

    /// What went wrong, one line, without the file's name.
    public var reason: String {
        switch self {
        case .unreadable(_, let reason), .unsupportedFormat(_, let reason), .damaged(_, let reason), .overLimit(_, let reason),
             .invalidRequest(_, let reason), .noVideo(_, let reason), .writeFailed(_, let reason), .deployment(_, let reason),
             .internalFailure(_, let reason):
            return reason
        case .cancelled:
            return "cancelled"
        }
    }

    /// `FILE: REASON`, as the command line's error line has it after `mediatool: `.
    public var description: String { "\(Diagnostics.printable(file)): \(Diagnostics.printable(reason))" }

    /// An error of the work's modules, sorted into its case; its text is the one the command line prints.
    init(_ error: any Error, file: String) {
        if let error = error as? MediaError {
            self = error
            return
        }
        if error is CancellationError {
            self = .cancelled(file: file)
            return
        }
        var reason = "\(error)"
        if case WorkerFailure.didNotStart = error {
            // The likeliest cause where the command line's own workers start: another version's.
            reason += " (is it the mediatool of MediaToolKit's version?)"
        }
        self = MediaError(FailureKind(classifying: error), file: file, reason: reason)
    }

    init(_ kind: FailureKind, file: String, reason: String) {
        switch kind {
        case .unreadable: self = .unreadable(file: file, reason: reason)
        case .unsupportedFormat: self = .unsupportedFormat(file: file, reason: reason)
        case .damaged: self = .damaged(file: file, reason: reason)
        case .overLimit: self = .overLimit(file: file, reason: reason)
        case .invalidRequest: self = .invalidRequest(file: file, reason: reason)
        case .noVideo: self = .noVideo(file: file, reason: reason)
        case .writeFailed: self = .writeFailed(file: file, reason: reason)
        case .cancelled: self = .cancelled(file: file)
        case .deployment: self = .deployment(file: file, reason: reason)
        case .internalFailure: self = .internalFailure(file: file, reason: reason)
        }
    }
}
