/// Turns at the decoders, shared fairly between clients: at most `capacity` requests decode at once,
/// and when one ends the next turn goes to the client after the last one served, not to whoever
/// queued first. A client that sends a hundred bad uploads at once then waits behind itself, while
/// another's one photo waits for a single turn: its latency stays near an idle server's.
actor FairTurns {
    private let capacity: Int
    private var running = 0
    /// The waiting requests of each client, in the order they came.
    private var waiting: [String: [(id: Int, turn: CheckedContinuation<Void, any Error>)]] = [:]
    /// The clients with a request waiting, in the order their turns come.
    private var rota: [String] = []
    private var nextID = 0

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// `work`, once it has a turn; the turn is handed on when it ends, however it ends. A task
    /// cancelled while it waits leaves the queue with `CancellationError`.
    func withTurn<Result: Sendable>(client: String, _ work: @Sendable () async throws -> Result) async throws -> Result {
        try await take(client: client)
        defer { handOn() }
        return try await work()
    }

    private func take(client: String) async throws {
        try Task.checkCancellation()
        if running < capacity && rota.isEmpty {
            running += 1
            return
        }
        let id = nextID
        nextID += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (turn: CheckedContinuation<Void, any Error>) in
                if waiting[client] == nil { rota.append(client) }
                waiting[client, default: []].append((id, turn))
            }
        } onCancel: {
            Task { await self.leave(client: client, id: id) }
        }
    }

    /// A waiter whose task was cancelled, out of the queue (if its turn has not come already).
    private func leave(client: String, id: Int) {
        guard let queue = waiting[client], let index = queue.firstIndex(where: { $0.id == id }) else { return }
        let turn = queue[index].turn
        remove(client: client, at: index)
        turn.resume(throwing: CancellationError())
    }

    private func handOn() {
        guard let client = rota.first, let next = waiting[client]?.first else {
            running -= 1
            return
        }
        remove(client: client, at: 0)
        // The client served goes to the back of the rota, if it still waits.
        if waiting[client] != nil, let index = rota.firstIndex(of: client) {
            rota.remove(at: index)
            rota.append(client)
        }
        next.turn.resume()
    }

    private func remove(client: String, at index: Int) {
        waiting[client]!.remove(at: index)
        if waiting[client]!.isEmpty {
            waiting[client] = nil
            rota.removeAll { $0 == client }
        }
    }
}
