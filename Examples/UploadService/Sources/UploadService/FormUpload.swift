import Foundation

/// The file of a browser's form upload (`<input type="file">`, `curl -F file=@photo.jpg`): a
/// `multipart/form-data` body (RFC 7578) holds each field as a part between boundary lines, and
/// the file is the part whose headers give a `filename`. Without this, the whole form (its
/// boundaries and headers around the file) was taken for the upload, and FFmpeg read it as a
/// stream of JPEG frames (its `mpjpeg` demuxer): "the duration is unknown".
enum FormUpload {
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

    /// The bytes of the first part that is a file; nil when the body holds none.
    static func file(in body: Data, boundary: String) -> Data? {
        let delimiter = Data("--\(boundary)".utf8)
        let headersEnd = Data("\r\n\r\n".utf8)
        var searchFrom = body.startIndex
        while let start = body.range(of: delimiter, in: searchFrom..<body.endIndex) {
            guard let headers = body.range(of: headersEnd, in: start.upperBound..<body.endIndex) else { return nil }
            let headerText = String(decoding: body[start.upperBound..<headers.lowerBound], as: UTF8.self).lowercased()
            // The part ends before the next delimiter, on its own line.
            guard let next = body.range(of: Data("\r\n".utf8) + delimiter, in: headers.upperBound..<body.endIndex) else { return nil }
            if headerText.contains("content-disposition:") && headerText.contains("filename=") {
                return body.subdata(in: headers.upperBound..<next.lowerBound)
            }
            searchFrom = next.lowerBound + 2
        }
        return nil
    }
}
