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

    private typealias Frame = (picture: PixelBuffer, milliseconds: Int)

    private let encoder: any PreviewEncoder
    private let frames = BoundedChannel<Frame>(capacity: EncodingThread.capacity)
    /// The encoder's error, where it failed on the thread: the frames that waited were dropped.
    private let failure = ConditionLock<(any Error)?>(nil)
    /// nil where no thread could be had: each frame is then encoded as it is given.
    private var thread: WorkerThreads.Group?

    init(encoder: any PreviewEncoder) {
        self.encoder = encoder
        // The encoder is the thread's until it is joined (`finish`, or `deinit`).
        let (handed, frames, failure) = (HandedOver(encoder), frames, failure)
        let started = WorkerThreads.start(count: 1) { _ in
            while let frame = frames.receive() {
                do {
                    try handed.value.add(frame.picture, milliseconds: frame.milliseconds)
                } catch {
                    failure.withLock { $0 = error }
                    frames.close()
                    return
                }
            }
        }
        if started.count == 1 { thread = consume started } else { started.join() }
    }

    /// Ends the thread (after the frames that wait) where `finish` was not reached: an error of
    /// the decoding.
    deinit {
        frames.finish()
        thread.take()?.join()
    }

    var width: Int { encoder.width }
    var height: Int { encoder.height }

    /// Hands `picture` on, waiting while `capacity` frames wait; the encoder's error, if it failed.
    func add(_ picture: PixelBuffer, milliseconds: Int) throws {
        guard thread != nil else { return try encoder.add(picture, milliseconds: milliseconds) }
        if !frames.send((picture, milliseconds)) { try checkFailure() }
    }

    /// The encoded preview, once every frame given is encoded.
    func finish() throws -> [UInt8] {
        frames.finish()
        thread.take()?.join()
        try checkFailure()
        return try encoder.finish()
    }

    private func checkFailure() throws {
        if let failure = failure.withLock({ $0 }) { throw failure }
    }
}
