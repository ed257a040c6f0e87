import Synchronization

/// What the service spends reading past refused bodies (see `BodyStream.refusing`): a few at once
/// for each client and in all, at a pace each client has for itself within one the service has
/// for all. Past the counts a refused connection is closed at once: a flood of refused uploads
/// holds no more connections than these, and one client's flood does not take another's pace.
enum ReadingPast {
    static let mostAtOnce = 64
    static let mostForOneClient = 4
    /// Bytes a second.
    static let paceForOneClient = 32 << 20
    static let paceInAll = 128 << 20

    private struct State {
        var readers = 0
        var readersOf: [String: Int] = [:]
        var nextSlot = ContinuousClock.now
        var nextSlotOf: [String: ContinuousClock.Instant] = [:]
    }

    private static let state = Mutex(State())

    /// Whether `client` may have one more body read past; if so, `leave` it when done.
    static func enter(client: String) -> Bool {
        state.withLock { state in
            guard state.readers < mostAtOnce, state.readersOf[client, default: 0] < mostForOneClient else { return false }
            state.readers += 1
            state.readersOf[client, default: 0] += 1
            return true
        }
    }

    static func leave(client: String) {
        state.withLock { state in
            state.readers -= 1
            state.readersOf[client, default: 1] -= 1
            if state.readersOf[client] == 0 {
                state.readersOf[client] = nil
                state.nextSlotOf[client] = nil
            }
        }
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
