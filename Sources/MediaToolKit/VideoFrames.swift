import Foundation
import Synchronization
internal import FFmpeg
internal import Jobs
internal import Sandbox
internal import VideoThumbnails
internal import WorkerPool

/// The frames of `VideoFrameGenerator.images(at:)`, made by one pass over the file on a thread of
/// their own, one frame ahead of the loop that takes them.
public struct VideoFrames: AsyncSequence, Sendable {
    public typealias Element = GeneratedFrame
    public typealias Failure = MediaError

    let generator: VideoFrameGenerator
    let times: [Double]

    public func makeAsyncIterator() -> Iterator {
        Iterator(generator: generator, times: times)
    }

    /// Starts the pass over the file at the first `next()`.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = GeneratedFrame
        public typealias Failure = MediaError

        private let name: String
        private let producer: Producer
        private var frames: AsyncThrowingStream<GeneratedFrame, any Error>.Iterator

        init(generator: VideoFrameGenerator, times: [Double]) {
            name = generator.source.name
            let (stream, continuation) = AsyncThrowingStream.makeStream(of: GeneratedFrame.self, throwing: (any Error).self)
            frames = stream.makeAsyncIterator()
            let stopped = CancellationFlag()
            let demand = Permits()
            // Ends a worker's decode at once when the loop stops.
            let cancellation = try? JobCancellation()
            continuation.onTermination = { _ in
                stopped.set()
                cancellation?.cancel()
                demand.give()
            }
            producer = Producer(stopped: stopped, demand: demand, cancellation: cancellation) {
                // A thread of the stream's own, not the pool's: it waits for its reader between
                // frames, and a reader that awaited another call meanwhile would wait on a pool
                // whose threads all waited for their readers.
                let started = WorkerThreads.detach {
                    nameThisThread()
                    Self.runningProducers.add(1, ordering: .relaxed)
                    defer { Self.runningProducers.subtract(1, ordering: .relaxed) }
                    do {
                        try Self.produce(generator: generator, times: times, demand: demand, stopped: stopped,
                                         cancellation: cancellation) { continuation.yield($0) }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                if !started {
                    continuation.finish(throwing: MediaError.overLimit(file: generator.source.name, reason: "the system refused a thread for the frames"))
                }
            }
        }

        /// The next frame in order of time, nil after the last; `.cancelled` when the task is cancelled.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(MediaError) -> GeneratedFrame? {
            // Once, whichever copy of the iterator asks first.
            producer.startOnce()
            // One more frame may be made.
            producer.demand.give()
            let frame: GeneratedFrame?
            do {
                frame = try await frames.next(isolation: actor)
            } catch {
                throw MediaError(error, file: name)
            }
            // The stream ends quietly when its task is cancelled: a loop cut short says so.
            if frame == nil && Task.isCancelled { throw .cancelled(file: name) }
            return frame
        }

        /// The next frame in order of time, nil after the last.
        public mutating func next() async throws(MediaError) -> GeneratedFrame? {
            try await next(isolation: nil)
        }

        /// Producing threads running now, in the whole process: what the tests watch to see every
        /// loop's thread end. Counted only; nothing reads it to decide anything.
        static let runningProducers = Atomic<Int>(0)

        /// The producing thread's controls, held by the iterator alone (the thread holds what is in
        /// them, not this): when the last copy of the iterator goes, so does the thread, however the
        /// loop ended.
        final class Producer: Sendable {
            let stopped: CancellationFlag
            let demand: Permits
            let cancellation: JobCancellation?
            private let start: @Sendable () -> Void
            private let started = Atomic<Bool>(false)

            init(stopped: CancellationFlag, demand: Permits, cancellation: JobCancellation?, start: @escaping @Sendable () -> Void) {
                self.stopped = stopped
                self.demand = demand
                self.cancellation = cancellation
                self.start = start
            }

            func startOnce() {
                if !started.exchange(true, ordering: .acquiringAndReleasing) { start() }
            }

            deinit {
                stopped.set()
                cancellation?.cancel()
                demand.give()
            }
        }

        /// The frames in ascending order of time, each made once the one before was taken.
        private static func produce(generator: VideoFrameGenerator, times: [Double], demand: Permits, stopped: CancellationFlag,
                                    cancellation: JobCancellation?, yield: (GeneratedFrame) -> Void) throws {
            try generator.checkTolerances()
            let name = generator.source.name
            for time in times { try VideoFrameGenerator.checkTime(time, file: name) }
            if times.isEmpty { return }
            let sorted = times.sorted()
            var options = generator.options(mode: generator.requestedTimeToleranceBefore == .infinity ? .keyframe : .exact, at: 0)
            options.sizes = try generator.sizes
            demand.take()
            if stopped.isSet { throw CancellationError() }
            let file = try VideoFrameGenerator.openVideo(generator.source,
                                                         stop: SandboxedCalls.stop(generator.configuration, isCancelled: { stopped.isSet }))
            var made = 0
            _ = try SandboxedCalls.run(.frames(options, times: sorted), on: file, configuration: generator.configuration,
                                       cancellation: cancellation, isCancelled: { stopped.isSet }) { record in
                guard record.index == made, made < sorted.count else {
                    throw PictureRecordError.malformed("frame \(record.index) where \(made) of \(sorted.count) was due")
                }
                made += 1
                if record.index > 0 { demand.take() }
                if stopped.isSet { throw CancellationError() }
                yield(GeneratedFrame(requestedTime: sorted[record.index], actualTime: record.seconds ?? 0, image: Bitmap(record),
                                     orientation: ImageOrientation(record.orientation), warnings: record.warnings))
            }
        }
    }
}
