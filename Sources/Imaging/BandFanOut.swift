import Glibc
import WorkerPool

/// Bands of decoded rows, handed from the thread that decodes them to the threads that reduce them:
/// every consumer gets every band, in order; the decoder waits when it is `depth` bands ahead of
/// the slowest, so memory stays a few bands whatever the picture's size.
final class BandFanOut: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var bands: [Int: PixelBuffer] = [:]
    private var produced = 0
    private var finished = false
    private var consumed: [Int]
    private let depth: Int

    init(consumers: Int, depth: Int = 4) {
        consumed = [Int](repeating: 0, count: consumers)
        self.depth = depth
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    func put(_ band: PixelBuffer) {
        pthread_mutex_lock(&mutex)
        while produced - (consumed.min() ?? produced) >= depth { pthread_cond_wait(&changed, &mutex) }
        bands[produced] = band
        produced += 1
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }

    /// No more bands: the consumers end when they have taken those there are.
    func finish() {
        pthread_mutex_lock(&mutex)
        finished = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }

    /// The consumer's next band; nil when there are no more.
    func next(for consumer: Int) -> PixelBuffer? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while consumed[consumer] == produced && !finished { pthread_cond_wait(&changed, &mutex) }
        guard consumed[consumer] < produced else { return nil }
        let index = consumed[consumer]
        let band = bands[index]!
        consumed[consumer] += 1
        if consumed.allSatisfy({ $0 > index }) { bands[index] = nil }
        pthread_cond_broadcast(&changed)
        return band
    }

    /// A consumer that will never take a band (its thread could not start): not waited for.
    func drop(_ consumer: Int) {
        pthread_mutex_lock(&mutex)
        consumed[consumer] = Int.max / 2
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }
}
