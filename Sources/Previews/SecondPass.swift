import Glibc
import FileIO
import Imaging
import VideoThumbnails
import WorkerPool

/// The later pieces of a preview decoded on a thread of their own while the first pass decodes the
/// earlier ones: H.264's frame threads gain a fifth on two cores, two passes side by side nearly
/// twice. Their frames wait here, at the preview's size, to be handed on in order once the first
/// pass is done; past `maxBytes` of them the pass stops, and they are decoded after the first.
final class SecondPass: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var frames: [MadeThumbnails] = []
    private var heldBytes = 0
    private var failure: (any Error)?
    private var thread: WorkerThreads.Group?
    private let maxBytes: Int

    /// Thrown inside the pass to stop it when its frames would hold more than `maxBytes`.
    private struct TooFarAhead: Error {}

    /// Starts decoding `times` of `file` (ascending) at `size`, on one thread.
    init(file: InputFile, options: ThumbnailOptions, times: [Double], size: ThumbnailSize, maxBytes: Int) {
        self.maxBytes = maxBytes
        pthread_mutex_init(&mutex, nil)
        thread = WorkerThreads.start(count: 1) { [self] _ in
            do {
                try Thumbnailer(options: options).videoFrames(from: file, atSeconds: times, sizes: [size]) { _, made in
                    try self.keep(made)
                }
            } catch {
                self.stop(error)
            }
        }
    }

    deinit {
        pthread_mutex_destroy(&mutex)
    }

    private func keep(_ made: MadeThumbnails) throws {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        heldBytes += made.pictures.reduce(0) { $0 + $1.bytes.count }
        guard heldBytes <= maxBytes else { throw TooFarAhead() }
        frames.append(made)
    }

    private func stop(_ error: any Error) {
        pthread_mutex_lock(&mutex)
        if !(error is TooFarAhead) { failure = error }
        pthread_mutex_unlock(&mutex)
    }

    /// Waits for the pass to end; its frames, and whether it stopped short (too far ahead, or the
    /// thread refused) or failed with the video's error.
    func finish() throws -> [MadeThumbnails] {
        if let started = thread.take() {
            if started.count == 0 { return [] }
            started.join()
        }
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        if let failure { throw failure }
        return frames
    }
}
