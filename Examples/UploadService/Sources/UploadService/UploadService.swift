import Foundation
import Hummingbird
import HummingbirdCore
import MediaToolKit

/// An upload service in one route: `POST /uploads` takes a photo or a video as the request's body,
/// or as the file of a browser's form (multipart/form-data), and answers with what it is
/// (mediatool's probe, as JSON) and its thumbnail (a PNG, in base64). See its README.
///
///     swift run UploadService --port 8080
///     curl --data-binary @IMG_0042.MOV 'http://127.0.0.1:8080/uploads?size=320'
///     curl -F file=@IMG_0042.MOV 'http://127.0.0.1:8080/uploads?size=320'
@main
struct UploadService {
    static func main() async throws {
        let arguments = CommandLine.arguments
        var port = 8080
        if let flag = arguments.firstIndex(of: "--port") {
            guard flag + 1 < arguments.count, let given = Int(arguments[flag + 1]), (0...65535).contains(given) else {
                FileHandle.standardError.write(Data("UploadService: --port takes a port number, 0 to 65535\n".utf8))
                exit(64)
            }
            port = given
        }
        DescriptorLimit.raiseToHard()
        let app = Application(router: router(), server: .countedHTTP1(configuration: http1),
                              configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }

    /// Hummingbird's own limits: a request's head (its line and header fields) whole within 15 s
    /// of its connection's start or of the answer before, and a body silent no longer than that,
    /// else the connection is closed: a client that sends a byte now and then holds no connection
    /// for long. Header fields as a browser's, with room to spare, and no more.
    static let http1 = HTTP1Channel.Configuration(
        idleTimeout: .seconds(15),
        httpDecoderConfiguration: .init(maxHeaderFieldSize: 8 << 10, maxHeaderListSize: 32 << 10, maxHeaderFieldCount: 100))

    /// The largest upload taken, and what one request may use: a thread, a quarter of a GiB, and
    /// 30 s of a worker's decoding. The calls share the library's pool and its memory budget, so
    /// a hundred requests at once decode a few at a time instead of each taking what it wants.
    static let largestUpload = 256 << 20
    static let configuration: MediaConfiguration = {
        var configuration = MediaConfiguration(threads: 1, maxPixels: 100_000_000, maxMemory: 256 << 20)
        configuration.timeout = 30
        return configuration
    }()
    /// A request's whole time, its upload's included: a client that sends slowly, or a file that
    /// keeps every worker busy, is cut off, and its workers with it.
    static let requestDeadline: Duration = .seconds(60)
    /// Requests decoding at once, one a core, their turns shared between clients (by address).
    static let turns = FairTurns(capacity: ProcessInfo.processInfo.activeProcessorCount)

    static func router() -> Router<UploadContext> {
        let router = Router(context: UploadContext.self)
        router.post("uploads") { request, context -> Response in
            let deadline = ContinuousClock.now + requestDeadline
            let boundary = FormUpload.boundary(contentType: request.headers[.contentType])
            // A form's own lines around its file are allowed for; every byte of the body counts,
            // however it is framed.
            let body = BodyStream(request.body, limit: largestUpload + (boundary == nil ? 0 : FormUpload.largestOverhead))
            do {
                return try await upload(request, body: body, boundary: boundary, context: context)
            } catch {
                // The refusal is sent at once; what the client still sends is read past after it.
                return body.refusing(with: error as? HTTPError ?? HTTPError(.internalServerError), client: context.client,
                                     until: deadline, closing: context.closeConnection)
            }
        }
        return router
    }

    /// The answer to an upload, or the error that refuses it (an `HTTPError`).
    static func upload(_ request: Request, body: BodyStream, boundary: String?, context: UploadContext) async throws -> Response {
        let asked = request.uri.queryParameters.get("size")
        guard let size = asked.map({ Int($0) }) ?? 320, (16...4096).contains(size) else {
            throw HTTPError(.badRequest, message: "size is a number of pixels from 16 to 4096")
        }
        // A body that says it is over the largest upload is refused before a byte of it is read.
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > body.limit {
            throw HTTPError(.contentTooLarge, message: "the upload is \(length) bytes, over the largest taken, \(largestUpload)")
        }
        // Past the uploads under way in all (their disk) or of this client (its share of them), 503.
        if let full = UploadSlots.enter(client: context.client) {
            throw HTTPError(.serviceUnavailable, message: full)
        }
        defer { UploadSlots.leave(client: context.client) }
        return try await withDeadline(requestDeadline) {
            try await answer(body, boundary: boundary, size: size, context: context)
        }.response(from: request, context: context)
    }

    /// What the upload is and its thumbnail, once it is received and has its client's turn.
    static func answer(_ body: BodyStream, boundary: String?, size: Int, context: UploadContext) async throws -> UploadResponse {
        do {
            let upload = try await receive(body, boundary: boundary)
            return try await turns.withTurn(client: context.client) {
                var prober = MediaProber(configuration: configuration)
                prober.includesGPS = false  // an upload's place is not for the public
                let probe = try await prober.probe(upload)
                let thumbnails = try await ThumbnailGenerator(configuration: configuration)
                    .thumbnails(of: upload, fitting: [.maxPixelSize(size)])
                let picture = thumbnails.images[0]
                return UploadResponse(probe: probe, thumbnail: Thumbnail(
                    width: picture.width, height: picture.height, seconds: thumbnails.seconds,
                    png: try await picture.encoded(as: .png, threads: configuration.threads).base64EncodedString()))
            }
        } catch let error as MediaError {
            context.logger.info("\(error)")
            throw HTTPError(status(for: error), message: error.description)
        }
    }

    /// The upload, written to a file as it comes, never held whole: refused from its first MiB when
    /// it is no media, and once it or the body passes its largest. A form's file is taken from the
    /// form as it streams; a form without one is the client's mistake (400), one with too much
    /// besides its file too large (413).
    static func receive(_ body: BodyStream, boundary: String?) async throws -> MediaSource {
        let form = FormOutcome()
        do {
            guard let boundary else {
                return try await MediaSource.upload(body, name: "upload", maxBytes: largestUpload, configuration: configuration)
            }
            return try await MediaSource.upload(FormFileChunks(body: body, boundary: boundary, outcome: form), name: "upload",
                                                maxBytes: largestUpload, configuration: configuration)
        } catch {
            if body.passedLimit {
                throw HTTPError(.contentTooLarge, message: "the body went on past \(body.limit) bytes, over the largest taken")
            }
            if let failure = form.error { throw HTTPError(failure.isTooLarge ? .contentTooLarge : .badRequest, message: "\(failure)") }
            throw error
        }
    }

    /// `work`, cancelled once `deadline` has passed (its workers killed): 503 then.
    static func withDeadline<Result: Sendable>(_ deadline: Duration, _ work: @escaping @Sendable () async throws -> Result) async throws -> Result {
        try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: deadline)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                throw HTTPError(.serviceUnavailable, message: "the request took longer than \(deadline)")
            }
            return result
        }
    }

    /// What the failure is to the client.
    static func status(for error: MediaError) -> HTTPResponse.Status {
        switch error {
        case .unsupportedFormat, .noVideo: return .unsupportedMediaType
        case .overLimit: return .contentTooLarge
        case .damaged, .invalidRequest: return .unprocessableContent
        case .unreadable, .writeFailed, .cancelled, .internalFailure: return .internalServerError
        // The installation, not the upload: the service cannot serve until it is mended.
        case .deployment: return .serviceUnavailable
        }
    }
}

/// A request's context: the client's address (its port left out), by which turns and the reading
/// past refused bodies are shared, and a way to end its connection.
struct UploadContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let client: String
    let closeConnection: @Sendable () -> Void

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        client = OpenConnections.client(of: source.channel)
        let channel = source.channel
        closeConnection = { channel.close(promise: nil) }
    }
}

struct UploadResponse: ResponseEncodable {
    let probe: ProbeReport
    let thumbnail: Thumbnail
}

struct Thumbnail: Codable {
    let width: Int
    let height: Int
    /// The video's frame shown; nil for a photo.
    let seconds: Double?
    /// The PNG's bytes, base64.
    let png: String
}
