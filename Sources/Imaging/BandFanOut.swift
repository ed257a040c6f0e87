import WorkerPool

/// Bands of decoded rows, handed from the thread that decodes them to the threads that reduce them:
/// every consumer gets every band, in order; the decoder waits when it is `depth` bands ahead of
/// the slowest, so memory stays a few bands whatever the picture's size.
final class BandFanOut: Sendable {
    private struct State {
        var bands: [Int: PixelBuffer] = [:]
        var produced = 0
        var finished = false
        /// How many bands each consumer has taken.
        var consumed: [Int]
    }

    private let state: ConditionLock<State>
    private let depth: Int

    init(consumers: Int, depth: Int = 4) {
        state = ConditionLock(State(consumed: [Int](repeating: 0, count: consumers)))
        self.depth = depth
    }

    func put(_ band: PixelBuffer) {
        let depth = self.depth
        state.update(when: { $0.produced - ($0.consumed.min() ?? $0.produced) < depth }) { state in
            state.bands[state.produced] = band
            state.produced += 1
        }
    }

    /// No more bands: the consumers end when they have taken those there are.
    func finish() {
        state.update { $0.finished = true }
    }

    /// The consumer's next band; nil when there are no more.
    func next(for consumer: Int) -> PixelBuffer? {
        let band = state.update(when: { $0.consumed[consumer] < $0.produced || $0.finished }) { state -> PixelBuffer? in
            guard state.consumed[consumer] < state.produced else { return nil }
            let index = state.consumed[consumer]
            let band = state.bands[index]!
            state.consumed[consumer] += 1
            if state.consumed.allSatisfy({ $0 > index }) { state.bands[index] = nil }
            return band
        }
        return band
    }

    /// A consumer that will never take a band (its thread could not start): not waited for.
    func drop(_ consumer: Int) {
        state.update { $0.consumed[consumer] = Int.max / 2 }
    }
}
