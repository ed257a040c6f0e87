import Failures
/// Why an output could not be written where it was asked for.
public enum OutputError: Error, Equatable, CustomStringConvertible {
    /// The output exists and `--overwrite` was not given.
    case exists(path: String)

    /// `exists`, whatever its path.
    public var isExists: Bool {
        if case .exists = self { return true }
        return false
    }
    /// The output is one of the inputs.
    case wouldOverwriteInput(path: String)
    /// Something other than a regular file is at the output's path; it is never replaced.
    case notRegular(path: String, kind: String)
    /// The output is a symbolic link to nothing.
    case danglingLink(path: String)
    /// The folder the output goes in does not exist (it is not made: a typo should not become a folder).
    case missingFolder(path: String, folder: String)
    /// A folder on the way to the output is a link (or not a folder): it would land outside `folder`.
    case escapes(path: String, folder: String)

    public var description: String {
        switch self {
        case .exists(let path):
            return "output exists: \(path) (use \(Setting.overwrite) to replace it)"
        case .wouldOverwriteInput(let path):
            return "output is an input: \(path) (inputs are never written to)"
        case .notRegular(let path, let kind):
            return "output is \(kind): \(path) (only a regular file is ever replaced)"
        case .danglingLink(let path):
            return "output is a symbolic link to nothing: \(path)"
        case .missingFolder(let path, let folder):
            return "cannot write \(path): its folder \(folder) does not exist"
        case .escapes(let path, let folder):
            return "output \(path) would be written outside \(folder) (a name may not lead out of its folder)"
        }
    }
}

extension OutputError: ClassifiedError {
    public var failureKind: FailureKind { .writeFailed }
}
