import Dispatch
import Synchronization
import WorkerPool

/// Elements (doubles, or records of any size) cut into blocks of a fixed size (whatever sizes they
/// arrive in), each worked on by one of several workers into a result of its own, the results
/// consumed in the order of the blocks. At most two blocks a worker are in flight, so memory is
/// bounded however long the input.
///
/// The blocks do not depend on the number of workers or on how the input was read: a result that
/// depends on the blocking (statistics merged block by block) is the same on one core as on many.
final class OrderedBlockPipeline<Result>: @unchecked Sendable {
    /// Bytes of elements a block: enough that handing a block over costs little against formatting
    /// it (32,768 doubles).
    static var blockBytes: Int { 1 << 18 }

    /// Written by the submitting thread while the slot is free, by one worker while it is queued,
    /// read by the submitting thread once `finished` is signalled: the semaphores order every access.
    private final class Slot: @unchecked Sendable {
        let bytes: UnsafeMutableRawBufferPointer
        /// Elements in the block.
        var count = 0
        /// The index of the block's first value in the input.
        var first = 0
        var result: Result
        var isBusy = false
        let finished = DispatchSemaphore(value: 0)

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
    private let queue = Mutex<[Int]>([])
    private let queued = DispatchSemaphore(value: 0)
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
        slot.finished.wait()
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
            slot.finished.signal()
        } else {
            let index = current
            queue.withLock { $0.append(index) }
            queued.signal()
        }
        current = (current + 1) % slots.count
    }

    /// A worker's loop: the next queued slot, until told to stop (a negative index).
    private func serve() {
        while true {
            queued.wait()
            guard let index = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }), index >= 0 else { return }
            let slot = slots[index]
            work(UnsafeRawBufferPointer(rebasing: slot.bytes[..<(slot.count * elementSize)]), slot.count, slot.first, &slot.result)
            slot.finished.signal()
        }
    }

    private func stopWorkers() {
        guard let group = workers.take() else { return }
        queue.withLock { $0.append(contentsOf: Array(repeating: -1, count: workerCount)) }
        for _ in 0..<workerCount { queued.signal() }
        group.join()
    }
}
