/// What kind of failure an error is: the one question every caller asks of an error (a batch's
/// report, the library's `MediaError`, an HTTP status, a retry), answered by the error's own type
/// and carried across a worker's socket by name, where the type does not travel.
///
/// A closed set. Each says whose move it is: the uploader's (`unsupportedFormat`, `noVideo`,
/// `damaged`), the limits' (`overLimit`: memory, pixels, time), the caller's (`invalidRequest`,
/// `cancelled`), the machine's (`unreadable`, `writeFailed`), the deployment's (`deployment`: a
/// worker or library missing, of another version, unable to confine itself) or mediatool's own
/// (`internalFailure`: a bug, never the file's fault).
public enum FailureKind: String, Sendable, CaseIterable, Codable {
    /// The input could not be opened or read (missing, a folder, no permission, shrank while read).
    case unreadable
    /// No format this tool reads.
    case unsupportedFormat
    /// A known format whose contents are broken, or that made its decoder fail or misbehave.
    case damaged
    /// Over a limit: pixels, memory, output size, time.
    case overLimit
    /// The request does not fit the input or is malformed (a rect outside, a bad recipe).
    case invalidRequest
    /// No video where a video was asked for.
    case noVideo
    /// An output could not be written.
    case writeFailed
    /// The caller cancelled the work.
    case cancelled
    /// The installation, not the input: no worker, a worker or library of another version, a
    /// kernel that cannot confine a worker.
    case deployment
    /// A fault of mediatool's own.
    case internalFailure = "internal"

    /// The kind of any error: its own where its type is classified (every error type of
    /// `Sources/` is, which a test checks); a task's cancellation is `cancelled`; any other is
    /// mediatool's own fault.
    public init(classifying error: any Error) {
        if let classified = error as? any ClassifiedError {
            self = classified.failureKind
        } else if error is CancellationError {
            self = .cancelled
        } else {
            self = .internalFailure
        }
    }
}

/// An error that says what kind of failure it is.
public protocol ClassifiedError: Error {
    var failureKind: FailureKind { get }
}
