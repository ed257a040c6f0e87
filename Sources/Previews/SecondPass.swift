import Synchronization
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
final class SecondPass: Sendable {
    private struct State {
        var frames: [MadeThumbnails] = []
        var heldBytes = 0
        var failure: (any Error)?
        var ended = false
        /// Set when the frames are no longer wanted: the pass stops at its next frame.
        var abandoned = false
    }

    private let state = ConditionLock(State())
    private let thread = Mutex<WorkerThreads.Group?>(nil)
    private let maxBytes: Int

    /// Thrown inside the pass to stop it when its frames would hold more than `maxBytes`.
    fileprivate struct TooFarAhead: Error {}

    /// Starts decoding `times` of `file` (ascending) at `size`, on one thread.
    init(file: InputFile, options: ThumbnailOptions, times: [Double], size: ThumbnailSize, maxBytes: Int) {
        self.maxBytes = maxBytes
        thread.withLock { slot in
            let started = WorkerThreads.start(count: 1) { [self] _ in
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
            if started.count == 0 { stop(nil) }
            slot = consume started
        }
    }

    private func keep(_ made: MadeThumbnails) throws {
        let maxBytes = self.maxBytes
        try state.update { state in
            state.heldBytes += Self.bytes(of: made)
            guard state.heldBytes <= maxBytes, !state.abandoned else { throw TooFarAhead() }
            state.frames.append(made)
        }
    }

    private static func bytes(of made: MadeThumbnails) -> Int {
        made.pictures.reduce(0) { $0 + $1.bytes.count }
    }

    private func stop(_ error: (any Error)?) {
        state.update { state in
            if let error, !(error is TooFarAhead) { state.failure = error }
            state.ended = true
        }
    }

    /// Hands the pass's frames to `take` in order, those waiting and then each as it comes, until
    /// the pass ends; how many. Throws the video's error where the pass failed, or `take`'s (the
    /// pass then stops at its next frame). A pass stopped short (too far ahead, or refused a
    /// thread) ends with fewer frames.
    func drain(into take: (MadeThumbnails) throws -> Void) throws -> Int {
        var count = 0
        defer { join() }
        while true {
            let (ready, over, failed) = state.update(when: { !$0.frames.isEmpty || $0.ended }) { state in
                let ready = state.frames
                state.frames = []
                // Handed on, they are no longer held here: the pass may go on as far again.
                state.heldBytes -= ready.reduce(0) { $0 + Self.bytes(of: $1) }
                return (ready, ready.isEmpty && state.ended, state.failure)
            }
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
        state.withLock { $0.abandoned = true }
        join()
    }

    private func join() {
        thread.withLock { $0.take() }?.join()
    }
}

extension SecondPass.TooFarAhead: ClassifiedError {
    var failureKind: FailureKind { .internalFailure }
}
