/// Values handed from threads that make them to threads that take them, in order, at most
/// `capacity` waiting: a maker waits while it is full, so memory stays `capacity` values however
/// fast the making. `finish` says no more come (takers get those left, then nil); `close` says
/// none is wanted any more (makers' sends return false at once, what waits is dropped).
public final class BoundedChannel<Element>: Sendable {
    private struct State {
        var waiting: [Element] = []
        var isFinished = false
        var isClosed = false
    }

    private let state: ConditionLock<State>
    public let capacity: Int

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        state = ConditionLock(State())
    }

    /// Hands `value` on, waiting while `capacity` values wait; false where the channel was closed
    /// (the value is dropped).
    public func send(_ value: sending Element) -> Bool {
        let capacity = self.capacity
        nonisolated(unsafe) let value = value
        return state.update(when: { $0.isClosed || $0.waiting.count < capacity }) { state in
            guard !state.isClosed else { return false }
            state.waiting.append(value)
            return true
        }
    }

    /// The next value, waiting for one; nil once the channel is finished and empty, or closed.
    public func receive() -> Element? {
        nonisolated(unsafe) let next = state.update(when: { $0.isClosed || $0.isFinished || !$0.waiting.isEmpty }) { state -> Element? in
            guard !state.isClosed, !state.waiting.isEmpty else { return nil }
            return state.waiting.removeFirst()
        }
        return next
    }

    /// No more values come: takers get those that wait, then nil.
    public func finish() {
        state.update { $0.isFinished = true }
    }

    /// No value is wanted any more: what waits is dropped, sends return false.
    public func close() {
        state.update { state in
            state.isClosed = true
            state.waiting.removeAll()
        }
    }
}
