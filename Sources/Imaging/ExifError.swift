import Failures
/// Why an EXIF block could not be read. The picture is still usable: its orientation is taken as 1.
public enum ExifError: Error, Equatable, CustomStringConvertible {
    case tooShort(length: Int)
    case badByteOrderMark(found: [UInt8])
    case badMagicNumber(found: Int)
    case offsetOutOfRange(offset: Int, length: Int)
    case badOrientationEntry(type: Int, count: Int)
    case orientationOutOfRange(found: Int)

    public var description: String {
        switch self {
        case .tooShort(let length):
            return "malformed EXIF: \(length) bytes is too short for a TIFF header"
        case .badByteOrderMark(let found):
            return "malformed EXIF: expected II or MM, found \(found.map { String($0, radix: 16) }.joined(separator: " "))"
        case .badMagicNumber(let found):
            return "malformed EXIF: expected 42 after the byte order, found \(found)"
        case .offsetOutOfRange(let offset, let length):
            return "malformed EXIF: offset \(offset) lies outside its \(length) bytes"
        case .badOrientationEntry(let type, let count):
            return "malformed EXIF: the orientation tag should be 1 SHORT, found type \(type), count \(count)"
        case .orientationOutOfRange(let found):
            return "malformed EXIF: orientation \(found) is not 1 to 8"
        }
    }
}

extension ExifError: ClassifiedError {
    public var failureKind: FailureKind { .damaged }
}
