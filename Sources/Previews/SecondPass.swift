import Glibc
import FileIO
import Imaging
import VideoThumbnails
import WorkerPool
import Failures

/// The later pieces of a preview decoded on a thread of their own while the first pass decodes the
/// earlier ones: H.264's frame threads gain a fifth on two cores, two passes side by side nearly
/// twice. Their frames wait here, at the preview's size, until the first pass is done: then they
/// are handed on in order as they come (`drain`). Past `maxBytes` of them waiting the pass stops,
/// and the rest is decoded after it.
final class SecondPass: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    /// Signalled when a frame is kept or the pass ends.
    private var changed = pthread_cond_t()
    private var frames: [MadeThumbnails] = []
    private var heldBytes = 0
    private var failure: (any Error)?
    private var ended = false
    /// Set when the frames are no longer wanted: the pass stops at its next frame.
    private var abandoned = false
    private var thread: WorkerThreads.Group?
    private let maxBytes: Int

    /// Thrown inside the pass to stop it when its frames would hold more than `maxBytes`.
    fileprivate struct TooFarAhead: Error {}

    /// Starts decoding `times` of `file` (ascending) at `size`, on one thread.
    init(file: InputFile, options: ThumbnailOptions, times: [Double], size: ThumbnailSize, maxBytes: Int) {
        self.maxBytes = maxBytes
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
        thread = WorkerThreads.start(count: 1) { [self] _ in
            do {
                try Thumbnailer(options: options).videoFrames(from: file, atSeconds: times, sizes: [size]) { _, made in
                    try self.keep(made)
                }
                self.stop(nil)
            } catch {
                self.stop(error)
            }
        }
        // Refused a thread: nothing comes.
        if thread?.count == 0 { stop(nil) }
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    private func keep(_ made: MadeThumbnails) throws {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        heldBytes += Self.bytes(of: made)
        guard heldBytes <= maxBytes, !abandoned else { throw TooFarAhead() }
        frames.append(made)
        pthread_cond_signal(&changed)
    }

    private static func bytes(of made: MadeThumbnails) -> Int {
        made.pictures.reduce(0) { $0 + $1.bytes.count }
    }

    private func stop(_ error: (any Error)?) {
        pthread_mutex_lock(&mutex)
        if let error, !(error is TooFarAhead) { failure = error }
        ended = true
        pthread_cond_signal(&changed)
        pthread_mutex_unlock(&mutex)
    }

    /// Hands the pass's frames to `take` in order, those waiting and then each as it comes, until
    /// the pass ends; how many. Throws the video's error where the pass failed, or `take`'s (the
    /// pass then stops at its next frame). A pass stopped short (too far ahead, or refused a
    /// thread) ends with fewer frames.
    func drain(into take: (MadeThumbnails) throws -> Void) throws -> Int {
        var count = 0
        defer { join() }
        while true {
            pthread_mutex_lock(&mutex)
            while frames.isEmpty && !ended { pthread_cond_wait(&changed, &mutex) }
            let ready = frames
            frames = []
            // Handed on, they are no longer held here: the pass may go on as far again.
            heldBytes -= ready.reduce(0) { $0 + Self.bytes(of: $1) }
            let over = ready.isEmpty && ended
            let failed = failure
            pthread_mutex_unlock(&mutex)
            if over {
                if let failed { throw failed }
                return count
            }
            do {
                for made in ready {
                    try take(made)
                    count += 1
                }
            } catch {
                abandon()
                throw error
            }
        }
    }

    /// Stops the pass at its next frame and waits for it to end (an error elsewhere).
    func abandon() {
        pthread_mutex_lock(&mutex)
        abandoned = true
        pthread_mutex_unlock(&mutex)
        join()
    }

    private func join() {
        if let started = thread.take(), started.count > 0 { started.join() }
    }
}

extension SecondPass.TooFarAhead: ClassifiedError {
    var failureKind: FailureKind { .internalFailure }
}
