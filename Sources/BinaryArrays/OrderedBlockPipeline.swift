import WorkerPool

/// Elements (doubles, or records of any size) cut into blocks of a fixed size (whatever sizes they
/// arrive in), each worked on by one of several workers into a result of its own, the results
/// consumed in the order of the blocks. At most two blocks a worker are in flight, so memory is
/// bounded however long the input.
///
/// The blocks do not depend on the number of workers or on how the input was read: a result that
/// depends on the blocking (statistics merged block by block) is the same on one core as on many.
/// (Unchecked Sendable: its workers reach it only through `serve`, which touches a slot the
/// submitting thread queued and does not touch again until the slot's permit is given back.)
final class OrderedBlockPipeline<Result>: @unchecked Sendable {
    /// Bytes of elements a block: enough that handing a block over costs little against formatting
    /// it (32,768 doubles).
    static var blockBytes: Int { 1 << 18 }

    /// Written by the submitting thread while the slot is free, by one worker while it is queued,
    /// read by the submitting thread once `finished` gives its permit: the permits and the queue's
    /// lock order every access.
    private final class Slot {
        let bytes: UnsafeMutableRawBufferPointer
        /// Elements in the block.
        var count = 0
        /// The index of the block's first value in the input.
        var first = 0
        var result: Result
        var isBusy = false
        let finished = Permits()

        init(result: Result, byteCount: Int) {
            self.result = result
            bytes = .allocate(byteCount: byteCount, alignment: 16)
        }
        deinit { bytes.deallocate() }
    }

    private let slots: [Slot]
    private let elementSize: Int
    /// Elements a block.
    let blockCapacity: Int
    private let work: @Sendable (UnsafeRawBufferPointer, Int, Int, inout Result) -> Void
    private let consume: (inout Result) throws -> Void
    /// The slots handed to the workers, by index.
    private let queue: BoundedChannel<Int>
    private var workers: WorkerThreads.Group?
    private var workerCount = 0
    /// The slot filling now, and the number of values before it.
    private var current = 0
    private var valuesBefore = 0

    /// `work(bytes, count, first, &result)` runs on a worker thread with `count` elements of
    /// `elementSize` bytes, the first of them element `first` of the input; `consume(&result)` on the
    /// thread that calls `append` and `finish`, block after block in order.
    init(workers: Int, elementSize: Int, makeResult: () -> Result,
         work: @escaping @Sendable (UnsafeRawBufferPointer, Int, Int, inout Result) -> Void,
         consume: @escaping (inout Result) throws -> Void) {
        precondition(elementSize > 0)
        self.elementSize = elementSize
        blockCapacity = max(1, Self.blockBytes / elementSize)
        let byteCount = blockCapacity * elementSize
        slots = (0..<(2 * max(1, workers))).map { _ in Slot(result: makeResult(), byteCount: byteCount) }
        // Never more queued than there are slots: a send never waits.
        queue = BoundedChannel(capacity: slots.count)
        self.work = work
        self.consume = consume
        let group = WorkerThreads.start(count: workers) { [unowned self] _ in self.serve() }
        workerCount = group.count
        self.workers = consume group
    }

    deinit {
        stopWorkers()
    }

    /// Adds elements after those given before: `count` of them at `bytes`.
    func append(_ bytes: UnsafeRawBufferPointer, count: Int) throws {
        var done = 0
        while done < count {
            let slot = try claim(current)
            let taken = min(count - done, blockCapacity - slot.count)
            UnsafeMutableRawBufferPointer(rebasing: slot.bytes[(slot.count * elementSize)...])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[(done * elementSize)..<((done + taken) * elementSize)]))
            slot.count += taken
            done += taken
            if slot.count == blockCapacity { submit() }
        }
    }

    /// Adds doubles after those given before.
    func append(_ values: UnsafeBufferPointer<Double>) throws {
        try append(UnsafeRawBufferPointer(values), count: values.count)
    }

    /// Works on the last, partial block and consumes every result left, in order.
    func finish() throws {
        if slots[current].count > 0 && !slots[current].isBusy { submit() }
        // The slots after `current` hold the oldest blocks still in flight.
        for step in 0..<slots.count {
            let slot = slots[(current + step) % slots.count]
            if slot.isBusy { try collect(slot) }
        }
        stopWorkers()
    }

    /// The slot at `index`, its earlier block consumed first if it still holds one.
    private func claim(_ index: Int) throws -> Slot {
        let slot = slots[index]
        if slot.isBusy { try collect(slot) }
        if slot.count == 0 { slot.first = valuesBefore }
        return slot
    }

    private func collect(_ slot: Slot) throws {
        slot.finished.take()
        slot.isBusy = false
        slot.count = 0
        try consume(&slot.result)
    }

    /// Hands the current slot to a worker (or, with none, works on it here) and moves on.
    private func submit() {
        let slot = slots[current]
        slot.isBusy = true
        valuesBefore += slot.count
        if workerCount == 0 {
            work(UnsafeRawBufferPointer(rebasing: slot.bytes[..<(slot.count * elementSize)]), slot.count, slot.first, &slot.result)
            slot.finished.give()
        } else {
            _ = queue.send(current)
        }
        current = (current + 1) % slots.count
    }

    /// A worker's loop: the next queued slot, until the queue is finished and empty.
    private func serve() {
        while let index = queue.receive() {
            let slot = slots[index]
            work(UnsafeRawBufferPointer(rebasing: slot.bytes[..<(slot.count * elementSize)]), slot.count, slot.first, &slot.result)
            slot.finished.give()
        }
    }

    private func stopWorkers() {
        guard let group = workers.take() else { return }
        queue.finish()
        group.join()
    }
}
