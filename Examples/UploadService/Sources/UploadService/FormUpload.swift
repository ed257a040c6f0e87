import Foundation

/// The file of a browser's form upload (`<input type="file">`, `curl -F file=@photo.jpg`): a
/// `multipart/form-data` body (RFC 7578) holds each field as a part between boundary lines, and
/// the file is the part whose headers give a `filename`. Without this, the whole form (its
/// boundaries and headers around the file) was taken for the upload, and FFmpeg read it as a
/// stream of JPEG frames (its `mpjpeg` demuxer): "the duration is unknown".
enum FormUpload {
    /// What a form may hold besides its file (boundaries, part headers, small fields): a body that
    /// says it is longer than the largest upload by more than this is refused unread, and one
    /// that sends more than this besides its file is refused once it has (chunked or not).
    static let largestOverhead = 1 << 20
    /// The parts a form may have, its file's included: a browser's form has a few.
    static let mostParts = 64
    /// A part's header lines: a browser's are a name, a file name and a type.
    static let largestPartHeaders = 16 << 10

    /// The boundary a `Content-Type: multipart/form-data; boundary=...` names; nil for any other type.
    static func boundary(contentType: String?) -> String? {
        guard let contentType else { return nil }
        let parameters = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parameters.first?.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parameters.dropFirst() where parameter.lowercased().hasPrefix("boundary=") {
            let value = parameter.dropFirst("boundary=".count)
            let unquoted = value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 ? value.dropFirst().dropLast() : value
            // RFC 2046: 1 to 70 characters.
            return (1...70).contains(unquoted.count) ? String(unquoted) : nil
        }
        return nil
    }
}

enum FormError: Error, CustomStringConvertible {
    /// The form ended without a part that is a file.
    case noFile
    /// A part's headers went on past what any form's do.
    case headersTooLong
    /// The body ended inside the file.
    case cutShort
    /// More parts than any browser's form has.
    case tooManyParts
    /// More besides the file than any browser's form has.
    case tooLarge

    var description: String {
        switch self {
        case .noFile: return "the form holds no file: send it as a field with a filename (curl -F file=@NAME)"
        case .headersTooLong: return "a part of the form has headers of more than \(FormUpload.largestPartHeaders) bytes"
        case .cutShort: return "the form ends inside its file"
        case .tooManyParts: return "the form has more than \(FormUpload.mostParts) parts"
        case .tooLarge: return "the form holds more than \(FormUpload.largestOverhead) bytes besides its file"
        }
    }

    /// Too much is the form's size (413); the rest, the client's mistake (400).
    var isTooLarge: Bool {
        switch self {
        case .tooManyParts, .tooLarge: return true
        case .noFile, .headersTooLong, .cutShort: return false
        }
    }
}

/// What went wrong with a form, once its reading has stopped: the client's (400 or 413), not the file's.
final class FormOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var failure: FormError?

    var error: FormError? { lock.withLock { failure } }

    func fail(_ error: FormError) { lock.withLock { failure = failure ?? error } }
}

/// The bytes of a form's first file part, as the body's chunks arrive (`FormParser`): the rest of
/// the form is read past and dropped, to the body's end.
struct FormFileChunks<Body: AsyncSequence>: AsyncSequence where Body.Element == [UInt8] {
    typealias Element = [UInt8]
    let body: Body
    let boundary: String
    let outcome: FormOutcome

    func makeAsyncIterator() -> Iterator {
        Iterator(body: body.makeAsyncIterator(), parser: FormParser(boundary: boundary), outcome: outcome)
    }

    struct Iterator: AsyncIteratorProtocol {
        var body: Body.AsyncIterator
        var parser: FormParser
        let outcome: FormOutcome

        mutating func next() async throws -> [UInt8]? {
            do {
                while let chunk = try await body.next() {
                    let file = try parser.read(chunk)
                    if !file.isEmpty { return file }
                }
                try parser.finish()
                return nil
            } catch let error as FormError {
                outcome.fail(error)
                throw error
            }
        }
    }
}
