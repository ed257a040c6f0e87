import Synchronization

/// Uploads being received at once, in all and for each client (by address). Each may write up to
/// the largest upload to disk, so the count in all bounds the disk a crowd of stalled clients can
/// hold; the count a client bounds what one client can take of it: a client that holds its slots
/// with bodies that trickle in leaves the others' slots free.
enum UploadSlots {
    static let mostInAll = 16
    static let mostForOneClient = 4

    private struct State {
        var inAll = 0
        var ofClient: [String: Int] = [:]
    }

    private static let state = Mutex(State())

    /// Why `client` has no slot now, or nil when it has one, which it must `leave` when done.
    static func enter(client: String) -> String? {
        state.withLock { state in
            if state.ofClient[client, default: 0] >= mostForOneClient {
                return "\(mostForOneClient) uploads of yours are under way: try again when one is done"
            }
            if state.inAll >= mostInAll {
                return "\(mostInAll) uploads are under way: try again shortly"
            }
            state.inAll += 1
            state.ofClient[client, default: 0] += 1
            return nil
        }
    }

    static func leave(client: String) {
        state.withLock { state in
            state.inAll -= 1
            state.ofClient[client, default: 1] -= 1
            if state.ofClient[client] == 0 { state.ofClient[client] = nil }
        }
    }
}
