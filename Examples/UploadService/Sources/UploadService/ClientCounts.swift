import Synchronization

/// Places taken at once, in all and by each client (by address), each count under its limit: the
/// upload slots, the open connections and the bodies read past keep this one account.
final class ClientCounts: Sendable {
    /// Which count a place was refused by.
    enum Refusal { case client, all }

    let mostInAll: Int
    let mostForOneClient: Int

    private struct State {
        var inAll = 0
        var ofClient: [String: Int] = [:]
    }

    private let state = Mutex(State())

    init(mostInAll: Int, mostForOneClient: Int) {
        self.mostInAll = mostInAll
        self.mostForOneClient = mostForOneClient
    }

    /// Takes a place for `client`, which it must `leave`; nil when taken, else what refused it.
    func enter(_ client: String) -> Refusal? {
        state.withLock { state in
            if state.ofClient[client, default: 0] >= mostForOneClient { return .client }
            if state.inAll >= mostInAll { return .all }
            state.inAll += 1
            state.ofClient[client, default: 0] += 1
            return nil
        }
    }

    /// Gives back a place of `client`'s; `true` when it was the client's last.
    @discardableResult
    func leave(_ client: String) -> Bool {
        state.withLock { state in
            state.inAll -= 1
            state.ofClient[client, default: 1] -= 1
            guard state.ofClient[client] == 0 else { return false }
            state.ofClient[client] = nil
            return true
        }
    }
}
