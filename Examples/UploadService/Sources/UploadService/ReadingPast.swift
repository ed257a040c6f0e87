import Synchronization

/// What the service spends reading past refused bodies (see `BodyStream.refusing`): a few at once
/// for each client and in all, at a pace each client has for itself within one the service has
/// for all, so one client's flood does not take another's pace. Past the counts a refused body
/// waits for its place, unread, until its request's deadline: a crowd of refused uploads is
/// answered in turn (each one's 503 reaches its client) instead of cut off with resets, and
/// holds no more than its connections, which `OpenConnections` bounds.
enum ReadingPast {
    static let mostAtOnce = 64
    static let mostForOneClient = 4
    /// Bytes a second.
    static let paceForOneClient = 32 << 20
    static let paceInAll = 128 << 20

    private static let readers = ClientCounts(mostInAll: mostAtOnce, mostForOneClient: mostForOneClient)

    /// When the next bytes may be read, in all and of each client reading.
    private struct State {
        var nextSlot = ContinuousClock.now
        var nextSlotOf: [String: ContinuousClock.Instant] = [:]
    }

    private static let state = Mutex(State())

    /// How often a body waiting for its place looks again: a few hundred waiting cost little.
    static let waitingStep: Duration = .milliseconds(50)

    /// Whether `client` had a place to read one more body past by `deadline`; if so, `leave` it when done.
    static func enter(client: String, until deadline: ContinuousClock.Instant) async -> Bool {
        while !tryEnter(client: client) {
            guard ContinuousClock.now < deadline, (try? await Task.sleep(for: waitingStep)) != nil else { return false }
        }
        return true
    }

    private static func tryEnter(client: String) -> Bool {
        readers.enter(client) == nil
    }

    static func leave(client: String) {
        // A client's pace is forgotten with its last body.
        if readers.leave(client) { state.withLock { $0.nextSlotOf[client] = nil } }
    }

    /// When `bytes` more of `client`'s may be read, at both paces.
    static func slot(for bytes: Int, client: String) -> ContinuousClock.Instant {
        state.withLock { state in
            let slot = Swift.max(state.nextSlot, state.nextSlotOf[client] ?? .now, .now)
            state.nextSlot = Swift.max(state.nextSlot, .now) + .seconds(Double(bytes) / Double(paceInAll))
            state.nextSlotOf[client] = slot + .seconds(Double(bytes) / Double(paceForOneClient))
            return slot
        }
    }
}
