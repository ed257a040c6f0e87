import Foundation
import Hummingbird
import Synchronization

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

    init(_ body: RequestBody) {
        chunks = body.makeAsyncIterator()
    }

    func nextChunk() async throws -> [UInt8]? {
        guard !finished else { return nil }
        guard let buffer = try await chunks.next() else {
            finished = true
            return nil
        }
        bytesRead += buffer.readableBytes
        return Array(buffer.readableBytesView)
    }

    /// `refusal` as an answer (`{"error":{"message":...}}`, as Hummingbird writes one), sent at
    /// once for clients that read as they send; then what the client still sends is read past
    /// (see `readPast`) until `deadline`, before the answer ends, so that it also reaches a client
    /// that sends all before it reads.
    func refusing(with refusal: HTTPError, readingPastUpTo limit: Int, until deadline: ContinuousClock.Instant) -> Response {
        struct Message: Encodable { let error: [String: String] }
        let json = (try? JSONEncoder().encode(Message(error: ["message": refusal.body ?? refusal.status.reasonPhrase]))) ?? Data("{}".utf8)
        let text = ByteBuffer(bytes: json)
        var headers = refusal.headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: refusal.status, headers: headers, body: ResponseBody(contentLength: text.readableBytes) { writer in
            try await writer.write(text)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.readPast(upTo: limit) }
                group.addTask { try? await Task.sleep(until: deadline) }
                await group.next()
                group.cancelAll()
            }
            try await writer.finish(nil)
        })
    }

    /// Reads on to the body's end, keeping nothing, while no more than `limit` bytes in all have
    /// come: past them the client is not waited for. Every refused body is read past at one shared
    /// pace: on a fast link, clients sending noise without pause would otherwise take a core from
    /// the uploads that are wanted (on loopback, two of them read past 800 MB a second).
    func readPast(upTo limit: Int) async {
        while !finished && bytesRead <= limit {
            guard let buffer = try? await chunks.next() else {
                finished = true
                return
            }
            bytesRead += buffer.readableBytes
            guard (try? await Task.sleep(until: Self.slot(for: buffer.readableBytes))) != nil else { return }
        }
    }

    /// Bytes a second read past refused bodies, all of them together.
    static let readingPastPace = 32 << 20
    private static let nextSlot = Mutex(ContinuousClock.now)

    /// When `bytes` more may be read past, at the shared pace.
    private static func slot(for bytes: Int) -> ContinuousClock.Instant {
        nextSlot.withLock { next in
            let slot = Swift.max(next, .now)
            next = slot + .seconds(Double(bytes) / Double(readingPastPace))
            return slot
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
