import Glibc
import Imaging
import WorkerPool

/// A preview's encoder on a thread of its own, given the frames in order as they are decoded: the
/// passes that decode them do not wait for the encoding, and the encoding of the first pieces
/// overlaps the decoding of the last. At most `capacity` frames wait for it; where no thread can
/// be had, each frame is encoded as it is given.
final class EncodingThread {
    /// Frames that wait, at most, whatever their size.
    static let capacity = 4
    /// Frames it holds at most: those that wait, and the one being encoded.
    static let heldFrames = capacity + 1

    private let queue: FrameQueue
    private var thread: WorkerThreads.Group?

    init(encoder: any PreviewEncoder) {
        queue = FrameQueue(encoder: encoder)
        let queue = self.queue
        let started = WorkerThreads.start(count: 1) { _ in queue.encodeUntilEnded() }
        if started.count == 1 {
            thread = consume started
        } else {
            started.join()
            queue.encodesInline = true
        }
    }

    /// Ends the thread (after the frames that wait) where `finish` was not reached: an error of
    /// the decoding.
    deinit {
        queue.end()
        thread.take()?.join()
    }

    var width: Int { queue.encoder.width }
    var height: Int { queue.encoder.height }

    /// Hands `picture` on, waiting while `capacity` frames wait; the encoder's error, if it failed.
    func add(_ picture: PixelBuffer, milliseconds: Int) throws {
        try queue.add(picture, milliseconds: milliseconds)
    }

    /// The encoded preview, once every frame given is encoded.
    func finish() throws -> [UInt8] {
        queue.end()
        thread.take()?.join()
        try queue.checkFailure()
        return try queue.encoder.finish()
    }
}

/// The frames between the decoding threads and the encoding one.
private final class FrameQueue: @unchecked Sendable {
    let encoder: any PreviewEncoder
    var encodesInline = false
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var waiting: [(picture: PixelBuffer, milliseconds: Int)] = []
    private var ended = false
    private var failure: (any Error)?

    init(encoder: any PreviewEncoder) {
        self.encoder = encoder
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    func add(_ picture: PixelBuffer, milliseconds: Int) throws {
        if encodesInline { return try encoder.add(picture, milliseconds: milliseconds) }
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while waiting.count >= EncodingThread.capacity && failure == nil { pthread_cond_wait(&changed, &mutex) }
        if let failure { throw failure }
        waiting.append((picture, milliseconds))
        pthread_cond_broadcast(&changed)
    }

    func end() {
        pthread_mutex_lock(&mutex)
        ended = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }

    func checkFailure() throws {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        if let failure { throw failure }
    }

    /// The encoding thread: frames in the order given, until the queue is ended and empty, or the
    /// encoder fails (the frames that wait are then dropped, and the next `add` throws).
    func encodeUntilEnded() {
        while true {
            pthread_mutex_lock(&mutex)
            while waiting.isEmpty && !ended { pthread_cond_wait(&changed, &mutex) }
            if waiting.isEmpty {
                pthread_mutex_unlock(&mutex)
                return
            }
            let next = waiting.removeFirst()
            pthread_cond_broadcast(&changed)
            pthread_mutex_unlock(&mutex)
            do {
                try encoder.add(next.picture, milliseconds: next.milliseconds)
            } catch {
                pthread_mutex_lock(&mutex)
                failure = error
                waiting.removeAll()
                pthread_cond_broadcast(&changed)
                pthread_mutex_unlock(&mutex)
                return
            }
        }
    }
}
