import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// HTTP/1.1 connections, each counted by `OpenConnections` as it opens and closes: one past the
/// counts is answered `OpenConnections.refusal` and closed as soon as it is active.
struct CountedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let http1: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let client = OpenConnections.client(of: channel)
        if OpenConnections.open(client: client) {
            channel.closeFuture.whenComplete { _ in OpenConnections.close(client: client) }
        } else {
            // First in the pipeline, ahead of HTTP's: what it writes goes to the socket as it is,
            // and what the client sends goes no further. (A failed setup would leave the socket
            // open and unanswered: NIO registers a child channel only once its setup succeeds.)
            do {
                try channel.pipeline.syncOperations.addHandler(RefusedConnection())
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
        }
        return http1.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with `configuration`, its connections counted (`CountedHTTP1Channel`).
    static func countedHTTP1(configuration: HTTP1Channel.Configuration) -> HTTPServerBuilder {
        .init { responder in CountedHTTP1Channel(http1: HTTP1Channel(responder: responder, configuration: configuration)) }
    }
}
