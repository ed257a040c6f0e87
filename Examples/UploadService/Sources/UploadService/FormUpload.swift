import Foundation

/// The file of a browser's form upload (`<input type="file">`, `curl -F file=@photo.jpg`): a
/// `multipart/form-data` body (RFC 7578) holds each field as a part between boundary lines, and
/// the file is the part whose headers give a `filename`. Without this, the whole form (its
/// boundaries and headers around the file) was taken for the upload, and FFmpeg read it as a
/// stream of JPEG frames (its `mpjpeg` demuxer): "the duration is unknown".
enum FormUpload {
    /// What a form may hold besides its file (boundaries, part headers, small fields): a body that
    /// says it is longer than the largest upload by more than this is refused unread.
    static let largestOverhead = 1 << 20

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

    var description: String {
        switch self {
        case .noFile: return "the form holds no file: send it as a field with a filename (curl -F file=@NAME)"
        case .headersTooLong: return "a part of the form has headers of more than 16 KiB"
        case .cutShort: return "the form ends inside its file"
        }
    }
}

/// What went wrong with a form, once its reading has stopped: the client's fault (400), not the file's.
final class FormOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var failure: FormError?

    var error: FormError? { lock.withLock { failure } }

    func fail(_ error: FormError) { lock.withLock { failure = failure ?? error } }
}

/// The bytes of a form's first file part, as the body's chunks arrive: the rest of the form is
/// read past and dropped, and nothing but the bytes that may still be a boundary's is held.
struct FormFileChunks<Body: AsyncSequence>: AsyncSequence where Body.Element: Sequence, Body.Element.Element == UInt8 {
    typealias Element = [UInt8]
    let body: Body
    let boundary: String
    let outcome: FormOutcome

    func makeAsyncIterator() -> Iterator {
        Iterator(body: body.makeAsyncIterator(), delimiter: Array("\r\n--\(boundary)".utf8), outcome: outcome)
    }

    struct Iterator: AsyncIteratorProtocol {
        enum Phase { case outside, headers, file, done }

        var body: Body.AsyncIterator
        let delimiter: [UInt8]
        // A form's first delimiter has no line break before it: one is put there.
        var held: [UInt8] = Array("\r\n".utf8)
        var phase = Phase.outside
        var foundFile = false
        let outcome: FormOutcome

        init(body: Body.AsyncIterator, delimiter: [UInt8], outcome: FormOutcome) {
            self.body = body
            self.delimiter = delimiter
            self.outcome = outcome
        }

        mutating func next() async throws -> [UInt8]? {
            do {
                return try await nextPiece()
            } catch let error as FormError {
                outcome.fail(error)
                throw error
            }
        }

        private mutating func nextPiece() async throws -> [UInt8]? {
            while true {
                switch phase {
                case .done:
                    return nil
                case .outside:
                    if let found = Self.find(delimiter, in: held) {
                        held.removeFirst(found + delimiter.count)
                        phase = .headers
                        continue
                    }
                    held.removeFirst(Swift.max(0, held.count - (delimiter.count - 1)))
                case .headers:
                    // The closing delimiter (`--` after it) ends the form.
                    if held.count >= 2 && held[0] == UInt8(ascii: "-") && held[1] == UInt8(ascii: "-") {
                        throw FormError.noFile
                    }
                    if let end = Self.find(Array("\r\n\r\n".utf8), in: held) {
                        let headers = String(decoding: held[..<end], as: UTF8.self).lowercased()
                        held.removeFirst(end + 4)
                        foundFile = headers.contains("content-disposition:") && headers.contains("filename=")
                        phase = foundFile ? .file : .outside
                        continue
                    }
                    if held.count > 16 << 10 { throw FormError.headersTooLong }
                case .file:
                    if let end = Self.find(delimiter, in: held) {
                        let last = Array(held[..<end])
                        held = []
                        phase = .done
                        if !last.isEmpty { return last }
                        continue
                    }
                    // All but what may be the start of the delimiter.
                    let safe = held.count - (delimiter.count - 1)
                    if safe > 0 {
                        let piece = Array(held[..<safe])
                        held.removeFirst(safe)
                        return piece
                    }
                }
                guard let chunk = try await body.next() else {
                    if phase == .file { throw FormError.cutShort }
                    if !foundFile { throw FormError.noFile }
                    phase = .done
                    return nil
                }
                held.append(contentsOf: chunk)
            }
        }

        /// Where `needle` first begins in `haystack`.
        static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
            guard haystack.count >= needle.count, let first = needle.first else { return nil }
            var index = 0
            while index <= haystack.count - needle.count {
                if haystack[index] == first && haystack[index..<index + needle.count].elementsEqual(needle) { return index }
                index += 1
            }
            return nil
        }
    }
}
