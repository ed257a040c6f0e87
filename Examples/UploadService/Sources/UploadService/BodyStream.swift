import Foundation
import Hummingbird

/// A request's body read through one iterator (Hummingbird makes only one), so that what a refusal
/// left unread can be read past before the answer. A client that sends its whole body before it
/// reads (Python's urllib, many scripts) otherwise never reads its 415: the service had stopped
/// reading, and with `Connection: close` nothing else reads the rest.
final class BodyStream: AsyncSequence, @unchecked Sendable {
    // One request's task reads it, one chunk at a time: no two reads overlap.
    typealias Element = [UInt8]
    private var chunks: RequestBody.AsyncIterator
    private var finished = false
    private(set) var bytesRead = 0
    /// The most bytes read, however the body is framed (a `Content-Length`, chunks): past it, the
    /// reading throws `BodyTooLarge`.
    let limit: Int
    private(set) var passedLimit = false

    struct BodyTooLarge: Error {}

    init(_ body: RequestBody, limit: Int) {
        chunks = body.makeAsyncIterator()
        self.limit = limit
    }

    func nextChunk() async throws -> [UInt8]? {
        guard !finished else { return nil }
        guard let buffer = try await chunks.next() else {
            finished = true
            return nil
        }
        bytesRead += buffer.readableBytes
        if bytesRead > limit {
            passedLimit = true
            throw BodyTooLarge()
        }
        return Array(buffer.readableBytesView)
    }

    /// `refusal` as an answer (`{"error":{"message":...}}`, as Hummingbird writes one), sent at
    /// once for clients that read as they send; then what the client still sends is read past
    /// (`ReadingPast` says how much, how fast and how many at once: a body waits for its place)
    /// up to `limit` bytes in all and until `deadline`, before the answer ends, so that it also
    /// reaches a client that sends all before it reads. A body not read to its end then costs its
    /// connection (`closing`): nothing else reads it, and its client gets a reset.
    func refusing(with refusal: HTTPError, client: String, until deadline: ContinuousClock.Instant,
                  closing: @escaping @Sendable () -> Void) -> Response {
        struct Message: Encodable { let error: [String: String] }
        let json = (try? JSONEncoder().encode(Message(error: ["message": refusal.body ?? refusal.status.reasonPhrase]))) ?? Data("{}".utf8)
        let text = ByteBuffer(bytes: json)
        var headers = refusal.headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: refusal.status, headers: headers, body: ResponseBody(contentLength: text.readableBytes) { writer in
            try await writer.write(text)
            // A body read to its end (most refusals come after it) has nothing to read past.
            if !self.finished, await ReadingPast.enter(client: client, until: deadline) {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await self.readPast(client: client) }
                    group.addTask { try? await Task.sleep(until: deadline) }
                    await group.next()
                    group.cancelAll()
                }
                ReadingPast.leave(client: client)
            }
            try await writer.finish(nil)
            if !self.finished { closing() }
        })
    }

    /// Reads on to the body's end, keeping nothing, while no more than `limit` bytes in all have
    /// come, at `ReadingPast`'s pace: on a fast link, clients sending noise without pause would
    /// otherwise take a core from the uploads that are wanted (on loopback, two of them were read
    /// past at 800 MB a second).
    private func readPast(client: String) async {
        while !finished && bytesRead <= limit {
            guard let buffer = try? await chunks.next() else {
                // The end, or the reading stopped (the deadline): only the end counts as finished.
                if !Task.isCancelled { finished = true }
                return
            }
            bytesRead += buffer.readableBytes
            guard (try? await Task.sleep(until: ReadingPast.slot(for: buffer.readableBytes, client: client))) != nil else { return }
        }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let stream: BodyStream

        func next() async throws -> [UInt8]? {
            try await stream.nextChunk()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(stream: self)
    }
}
