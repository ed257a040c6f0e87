import NIOCore
import Synchronization

/// The connections open at once, in all and for each client (by address). Each holds a descriptor:
/// 1100 connections that sent their request's head a byte at a time took all of a process's 1024,
/// and then no one was answered. Past either count a new connection is answered 503 and closed
/// at once, before it is read: one client cannot take every descriptor, and a crowd of them gets
/// a quick refusal instead of a wait in the kernel's queue (Hummingbird's own connection limit
/// stops accepting, which starves every client alike).
enum OpenConnections {
    /// 1024, or fewer where the process may not open that many descriptors and 256 more (for the
    /// uploads' files, the workers' pipes, the listener): past its descriptors, a process cannot
    /// accept even to refuse. Read at the first connection, after `DescriptorLimit.raiseToHard`.
    static let mostInAll = Swift.max(1, Swift.min(1024, DescriptorLimit.current - 256))
    /// As many as a client may have uploads waiting for their 503 (`ReadingPast`): a crowd of 200
    /// uploads from one client is answered, each of them.
    static let mostForOneClient = 256

    private static let counts = ClientCounts(mostInAll: mostInAll, mostForOneClient: mostForOneClient)

    /// Whether `client` may open one more; if so, `close` it when the connection closes.
    static func open(client: String) -> Bool {
        counts.enter(client) == nil
    }

    static func close(client: String) {
        counts.leave(client)
    }

    /// The client a connection comes from: its address, its port left out.
    static func client(of channel: any Channel) -> String {
        channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// What a connection past the counts is sent before it is closed.
    static let refusal: ByteBuffer = {
        let message = #"{"error":{"message":"too many connections are open: try again shortly"}}"#
        return ByteBuffer(string: "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n"
                          + "Content-Length: \(message.utf8.count)\r\n\r\n\(message)")
    }()
}
