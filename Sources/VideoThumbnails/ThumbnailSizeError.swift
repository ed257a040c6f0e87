import FileIO
import Failures
/// Sizes asked that the memory allowed cannot make.
public enum ThumbnailSizeError: Error, Equatable, CustomStringConvertible {
    /// The outputs and their reductions alone need more than `--max-memory`.
    case tooLarge(width: Int, height: Int, needed: Int, limit: Int)

    public var description: String {
        switch self {
        case .tooLarge(let width, let height, let needed, let limit):
            let mebibytes = needed == Int.max ? "more than \(Int.max >> 20)" : "\(needed >> 20)"
            return "the sizes asked (the largest \(width)x\(height)) need \(mebibytes) MiB of memory, over the limit of \(limit >> 20) MiB (\(Setting.maxMemory))"
        }
    }
}

extension ThumbnailSizeError: ClassifiedError {
    public var failureKind: FailureKind { .overLimit }
}
