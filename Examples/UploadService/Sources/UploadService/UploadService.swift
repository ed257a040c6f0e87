import Foundation
import Hummingbird
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
        let app = Application(router: router(), configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }

    /// The largest upload taken, and what one request may use: a thread, and a quarter of a GiB.
    static let largestUpload = 256 << 20
    static let configuration = MediaConfiguration(threads: 1, maxPixels: 100_000_000, maxMemory: 256 << 20)

    static func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.post("uploads") { request, context -> UploadResponse in
            let asked = request.uri.queryParameters.get("size")
            guard let size = asked.map({ Int($0) }) ?? 320, (16...4096).contains(size) else {
                throw HTTPError(.badRequest, message: "size is a number of pixels from 16 to 4096")
            }
            let body = try await request.body.collect(upTo: largestUpload)
            var bytes = Data(body.readableBytesView)
            if let boundary = FormUpload.boundary(contentType: request.headers[.contentType]) {
                guard let file = FormUpload.file(in: bytes, boundary: boundary) else {
                    throw HTTPError(.badRequest, message: "the form holds no file: send it as a field with a filename (curl -F file=@NAME)")
                }
                bytes = file
            }
            let upload = MediaSource.data(bytes, name: "upload")
            do throws(MediaError) {
                var prober = MediaProber(configuration: configuration)
                prober.includesGPS = false  // an upload's place is not for the public
                let probe = try await prober.probe(upload)
                let thumbnails = try await ThumbnailGenerator(configuration: configuration)
                    .thumbnails(of: upload, fitting: [.maxPixelSize(size)])
                let picture = thumbnails.images[0]
                return UploadResponse(probe: probe, thumbnail: Thumbnail(
                    width: picture.width, height: picture.height, seconds: thumbnails.seconds,
                    png: try await picture.encoded(as: .png, threads: configuration.threads).base64EncodedString()))
            } catch {
                context.logger.info("\(error)")
                throw HTTPError(status(for: error), message: error.description)
            }
        }
        return router
    }

    /// What the failure is to the client.
    static func status(for error: MediaError) -> HTTPResponse.Status {
        switch error {
        case .unsupportedFormat, .noVideo: return .unsupportedMediaType
        case .overLimit: return .contentTooLarge
        case .damaged, .invalidRequest: return .unprocessableContent
        case .unreadable, .writeFailed, .cancelled: return .internalServerError
        }
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
