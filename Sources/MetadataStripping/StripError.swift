import Failures

/// Why a file could not be stripped. Nothing is written for it.
public enum StripError: Error, Equatable, CustomStringConvertible {
    /// Not a format `strip` knows; `found` names what the first bytes look like, if anything.
    case unsupported(found: String)
    /// A structure runs past what holds it (`what`: a JPEG segment, a PNG chunk, a box...).
    case truncated(what: String, at: Int)
    /// Two structures claim one byte range.
    case overlappingMetadata(at: Int)
    /// A metadata structure larger than `strip` reads into memory.
    case metadataTooLarge(what: String, bytes: Int, limit: Int)
    /// The file changed size while it was read.
    case changedWhileRead(expected: Int, found: Int)
    /// The input is a stream: strip reads a file's metadata where it lies.
    case notAFile
    /// A Motion Photo's XMP puts its video at `at`, inside the picture.
    case motionVideoInsidePicture(at: Int)
    /// A timed-metadata track holds `key`, which strip removes, but its sample tables are cut,
    /// disagree or claim more samples than strip reads: refused, not left holding it.
    case unreadableTimedMetadata(key: String)

    public var description: String {
        switch self {
        case .unsupported(let found):
            return "not a picture or video strip reads (JPEG, PNG, WebP, HEIC/AVIF, TIFF, MP4/MOV)\(found.isEmpty ? "" : ": \(found)")"
        case .truncated(let what, let offset):
            return "damaged: \(what) at byte \(offset) runs past the end of the file"
        case .overlappingMetadata(let offset):
            return "damaged: two metadata structures claim the bytes at \(offset)"
        case .metadataTooLarge(let what, let bytes, let limit):
            return "\(what) of \(bytes) bytes is larger than the \(limit) strip reads"
        case .changedWhileRead(let expected, let found):
            return "the file changed while it was read: expected \(expected) bytes, found \(found)"
        case .unreadableTimedMetadata(let key):
            return "a timed-metadata track of \(key) that cannot be read one way only (its tables cut, repeated or past \(TimedMetadataTrack.mostEntries) entries, its keys given twice or named where its key table does not say): refused rather than left holding it"
        case .motionVideoInsidePicture(let offset):
            return "damaged: the XMP puts the Motion Photo's video at byte \(offset), inside the picture"
        case .notAFile:
            return "strip reads files, not streams: save the input first"
        }
    }
}

extension StripError: ClassifiedError {
    public var failureKind: FailureKind {
        switch self {
        case .unsupported: return .unsupportedFormat
        case .truncated, .overlappingMetadata, .changedWhileRead, .unreadableTimedMetadata, .motionVideoInsidePicture: return .damaged
        case .metadataTooLarge: return .overLimit
        case .notAFile: return .invalidRequest
        }
    }
}
