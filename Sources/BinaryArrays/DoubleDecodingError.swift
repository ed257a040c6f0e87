import FileIO
import Failures
/// Why the bytes of an input are not an array of doubles as asked.
public enum DoubleDecodingError: Error, Equatable, CustomStringConvertible {
    /// `--offset` lies beyond the input's `length` bytes.
    case offsetPastEnd(offset: Int, length: Int)
    /// `count` bytes at byte `offset` of the input do not make a whole value (or record) of `size` bytes.
    case trailingBytes(count: Int, offset: Int, wholeValues: Int, size: Int = 8)

    public var description: String {
        switch self {
        case .offsetPastEnd(let offset, let length):
            return "offset \(offset) is past the end (the input has \(length) bytes)"
        case .trailingBytes(let count, let offset, let wholeValues, let size):
            return "\(Self.bytes(count)) at offset \(offset) do not make a whole \(size)-byte value "
                + "(\(Setting.allowsTrailingBytes) decodes the \(Self.values(wholeValues)) before them)"
        }
    }

    /// The same problem, put as a warning: what was done instead.
    public var warningDescription: String {
        switch self {
        case .offsetPastEnd:
            return description
        case .trailingBytes(let count, let offset, let wholeValues, _):
            return "ignored \(Self.bytes(count)) at offset \(offset) after \(Self.values(wholeValues))"
        }
    }

    private static func bytes(_ count: Int) -> String { count == 1 ? "1 trailing byte" : "\(count) trailing bytes" }
    private static func values(_ count: Int) -> String { count == 1 ? "1 whole value" : "\(count) whole values" }
}

extension DoubleDecodingError: ClassifiedError {
    public var failureKind: FailureKind { .damaged }
}
