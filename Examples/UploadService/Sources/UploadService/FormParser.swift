/// A `multipart/form-data` body (RFC 7578) read as its chunks come, whatever their sizes, each
/// byte looked at once: it gives the bytes of the form's first file part (the first whose headers
/// give a `filename`) and passes over the rest. What is not the file (boundaries, part headers,
/// other fields, what follows the file) is counted and capped, and so are the parts: a form of
/// endless small fields is refused early, however it is framed.
struct FormParser {
    private enum Phase {
        /// Before the first boundary, or in a part that is no file: up to the next boundary.
        case passingOver
        /// A part's header lines, up to the empty line that ends them.
        case headers
        /// The file's bytes, up to the next boundary.
        case file
        /// After the file, or after the form's closing boundary: read to the body's end.
        case rest
    }

    private var phase = Phase.passingOver
    /// The line break and boundary that end each part (the first has no line break before it:
    /// the search is given one to begin with).
    private var boundary: StreamSearch
    private var headersEnd = StreamSearch(Array("\r\n\r\n".utf8))
    private var headers: [UInt8] = []
    private var parts = 0
    private var besidesFile = 0
    private(set) var foundFile = false

    init(boundary: String) {
        self.boundary = StreamSearch(Array("\r\n--\(boundary)".utf8))
        _ = self.boundary.scan(Array("\r\n".utf8), from: 0)
    }

    /// The file's bytes in `chunk` (none, some or all of it).
    mutating func read(_ chunk: [UInt8]) throws(FormError) -> [UInt8] {
        var file: [UInt8] = []
        var index = 0
        while index < chunk.count {
            let start = index
            switch phase {
            case .passingOver:
                if let end = boundary.scan(chunk, from: index) {
                    index = end
                    phase = .headers
                    headers = []
                } else {
                    index = chunk.count
                }
                try count(index - start)
            case .headers:
                let end = headersEnd.scan(chunk, from: index)
                index = end ?? chunk.count
                try count(index - start)
                guard headers.count + (index - start) <= FormUpload.largestPartHeaders else { throw .headersTooLong }
                headers += chunk[start..<index]
                // The closing boundary (`--` after it) ends the form.
                if headers.starts(with: Array("--".utf8)) {
                    phase = .rest
                } else if end != nil {
                    parts += 1
                    guard parts <= FormUpload.mostParts else { throw .tooManyParts }
                    let lines = String(decoding: headers, as: UTF8.self).lowercased()
                    // The first file ends the parts looked at: what follows it is `rest`.
                    foundFile = lines.contains("content-disposition:") && lines.contains("filename=")
                    phase = foundFile ? .file : .passingOver
                }
            case .file:
                // What the search holds back from the chunks before may be the boundary's start.
                let heldBack = boundary.matched
                let end = boundary.scan(chunk, from: index)
                index = end ?? chunk.count
                let stillHeld = end == nil ? boundary.matched : boundary.pattern.count
                let taken = heldBack + (index - start) - stillHeld
                // The bytes held back were the boundary's first ones: all or some of them are the file's.
                file += boundary.pattern[..<Swift.min(heldBack, taken)]
                if taken > heldBack { file += chunk[start..<start + taken - heldBack] }
                if end != nil {
                    phase = .rest
                    try count(boundary.pattern.count)
                }
            case .rest:
                index = chunk.count
                try count(index - start)
            }
        }
        return file
    }

    /// The body has ended: the form must have had its file, and the file its end.
    func finish() throws(FormError) {
        if phase == .file { throw .cutShort }
        if !foundFile { throw .noFile }
    }

    private mutating func count(_ bytes: Int) throws(FormError) {
        besidesFile += bytes
        guard besidesFile <= FormUpload.largestOverhead else { throw .tooLarge }
    }
}
