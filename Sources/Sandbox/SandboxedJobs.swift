import Batch
import Failures
import CMediaToolSystem
import CSandbox
import FileIO
import Glibc
import Imaging
import JSON
import Synchronization
import WorkerPool

/// How inputs are decoded: in confined worker processes (the default), or in this process.
public enum SandboxMode: String, Sendable, CaseIterable {
    case on, off
}

public struct SandboxSettings: Sendable {
    /// Wall time one input may take in its worker before the worker is killed.
    public var timeout: Double
    /// The memory one worker may use beyond its libraries (`--max-memory`), for its address-space limit.
    public var maxMemory: Int
    /// At most this many workers with FFmpeg loaded at once (nil: as many as the batch's threads).
    /// `probe`'s work on a video is a fraction of a millisecond beside the 40 ms loading FFmpeg
    /// takes: its videos wait for the one worker that has it, and its pictures go to others.
    public var mediaWorkers: Int?
    /// The run's memory budget: the workers' decoders reserve from it, so that `-j 2` takes the
    /// run's --max-memory in all, not each worker's (nil: each worker its own).
    public var budget: MemoryBudget?
    /// The program started as the worker: this one (the command line), or the `mediatool` a
    /// library's caller named or that was found for it.
    public var executable: String
    /// Added to the workers' environment (the tests' triggers).
    public var environment: [String] = []
    /// The most workers kept idle between jobs (nil: every one, as a batch's threads come back for
    /// them); a library's, which lives as long as its server, keeps a few.
    public var mostIdleWorkers: Int?
    /// Workers are copies of one process that loaded their libraries once (`WorkerZygote`), not
    /// each a process started afresh.
    public var startsFromZygote = true

    /// How long nothing may be given back to the budget before a waiter gives up (`MemoryBudget
    /// .givesUp`): past the timeout and half as much again (2 s at least), for a holder that works
    /// on is ended at its own deadline, which began before this wait, and what it gives back then
    /// must reach this waiter first (at the timeout itself, the two raced).
    public static func memoryStall(timeout: Double) -> Double { timeout + max(2, timeout / 2) }

    public init(timeout: Double, maxMemory: Int, mediaWorkers: Int? = nil, budget: MemoryBudget? = nil,
                executable: String = "/proc/self/exe") {
        self.timeout = timeout
        self.maxMemory = maxMemory
        self.mediaWorkers = mediaWorkers
        self.budget = budget
        self.executable = executable
    }
}

/// Runs `FileJob`s in confined workers: this process opens each input and the output's temporary,
/// a worker decodes and encodes on those descriptors, and this process alone moves the output into
/// place. A worker that crashes, passes its memory or time, or answers nonsense costs its input
/// only: it is ended and the next input gets a new one. Workers are kept between inputs, so a
/// batch pays for starting one per worker thread, not per file.
public final class SandboxedJobs: Sendable {
    public let settings: SandboxSettings
    private let idle = Mutex<[WorkerBox]>([])
    /// Set when a worker could not confine itself: every later input fails with the same reason at once.
    private let setupFailure = Mutex<WorkerFailure?>(nil)
    /// One permit per media worker allowed (`SandboxSettings.mediaWorkers`), held while one works.
    private let mediaPermits: Permits?
    /// How many permits there are (`allowMediaWorkers`).
    private let mediaAllowance: Mutex<Int>
    /// Where workers are copied from, when the settings say so.
    private let zygote: WorkerZygote?

    /// Starts the first workers at once, one for each of `starting` (what the inputs will need,
    /// as far as the caller can tell), and tells them the run's limits: their start, the larger
    /// part of what the sandbox costs one input, overlaps the batch's planning.
    public init(settings: SandboxSettings, starting: [JobDecoders] = [.media]) {
        self.settings = settings
        mediaPermits = settings.mediaWorkers.map { Permits(max(1, $0)) }
        mediaAllowance = Mutex(settings.mediaWorkers.map { max(1, $0) } ?? 0)
        zygote = settings.startsFromZygote ? WorkerZygote.take(for: settings) : nil
        // A zygote starts workers in turn: those without FFmpeg first, which it need not wait to load.
        let order = starting.indices.filter { starting[$0] == .pictures } + starting.indices.filter { starting[$0] != .pictures }
        var started: [Int: WorkerBox] = [:]
        for index in order {
            started[index] = (try? WorkerProcess(decoders: starting[index], settings: settings, zygote: zygote)).map(WorkerBox.init)
        }
        let boxes = starting.indices.compactMap { started[$0] }
        boxes.forEach { try? $0.worker.setUp(settings) }
        // The first started is taken first (the pool is taken from its end).
        idle.withLock { $0.append(contentsOf: boxes.reversed()) }
    }

    /// Starts the zygote of a run to come now (`WorkerZygote.prestart`): its start and its loading
    /// of FFmpeg overlap the run's planning. The first `SandboxedJobs` of the same settings takes it.
    public static func prestartZygote(settings: SandboxSettings) {
        WorkerZygote.prestart(settings: settings)
    }

    /// Every idle worker and the zygote are sent SIGKILL before any is waited for (as each is let
    /// go, after this): their ends (each one's mappings undone, FFmpeg's hundreds) then run side
    /// by side, not one after another. Each is waited for all the same: a process whose workers
    /// outlived it would leave them to whatever reaps orphans, which in a container may be nothing.
    deinit {
        idle.withLock { idle in idle.forEach { $0.worker.kill() } }
        zygote?.kill()
    }

    /// Raises the most workers with FFmpeg loaded at once to `count`, where it was lower: a
    /// caller that learns, once its workers have started, that its videos are many (a second
    /// FFmpeg costs its loading once, and halves the time videos wait for the first).
    public func allowMediaWorkers(_ count: Int) {
        guard let permits = mediaPermits else { return }
        let added = mediaAllowance.withLock { allowed -> Int in
            let added = max(0, count - allowed)
            allowed += added
            return added
        }
        permits.give(added)
    }

    /// The job for `input`, done in a worker on `threads` threads (0: every core); its report, or
    /// the worker's failure as an error. `job` is this process's part (recognising the input,
    /// opening the outputs); `spec` is what the worker is told to do (`JSONValueEncoder`'s tree of
    /// the typed job that `job` was made from).
    /// `cancellation` ends the worker at once (a library's call); `budget`: what its decoders
    /// reserve from (the settings' when nil); `progress` is told how far a long job has got.
    public func run(_ job: FileJob, spec: JSONValue, input: String, outputs planned: [PlannedOutput], threads: Int,
                    cancellation: JobCancellation? = nil, budget: MemoryBudget? = nil,
                    progress: (@Sendable (JobProgress) -> Void)? = nil) throws -> JobReport {
        let (file, outputs) = try job.openAny(input: input, outputs: planned)
        var (box, holdsPermit) = try checkout(for: job.decoders(file))
        // After the worker is back among the idle ones, where the next input waiting for it finds it.
        defer { if holdsPermit { mediaPermits?.give() } }
        // A job whose output is sought back in (a web video's muxer) writes the file itself, where
        // it is one; its worker then had a descriptor of what is about to be put in place, and is
        // ended with the job rather than kept (it could write there later).
        let inPlace = job.writesInPlace && outputs.map { FileSystem.isRewritableFile($0.primary) } == true
        // Likewise a worker given another output to write itself (an ingest's web video).
        var handedAFile = inPlace
        do {
            let report = try perform(on: &box, spec: spec, input: file, outputs: outputs, planned: planned,
                                     primary: nil, writesInPlace: inPlace, writesInPlaceBeside: job.writesInPlaceBeside,
                                     handedAFile: &handedAFile, acceptsProgress: job.progresses, threads: threads,
                                     cancellation: cancellation, budget: budget ?? settings.budget, progress: progress)
            if handedAFile { _ = box.worker.end() } else { checkin(box) }
            try outputs?.commit()
            return report
        } catch let failure as JobFailure {
            // The job's own error: the worker is fine and stays.
            if handedAFile { _ = box.worker.end() } else { checkin(box) }
            throw failure
        }
    }

    /// The job `spec` on an input this process opened, for a caller that takes the result in
    /// memory (the library): the worker writes its output to a pipe whose bytes go to `sink` as
    /// they come (at most `limit` of them), or, with no sink, its report is all. `cancellation`
    /// ends the worker at once. `budget`: what the worker's decoders reserve from (the settings'
    /// when nil), so that workers serve calls of any budget. The job's own error is a
    /// `JobFailure`; the worker's, a `WorkerFailure`.
    /// `accept` checks the worker's whole answer before the worker is kept for the next job: a
    /// worker whose answer it refuses (a lie the parent caught) is ended, not reused.
    public func stream(spec: JSONValue, input: InputFile, decoders: (_ input: InputFile) -> JobDecoders, threads: Int, limit: Int,
                       budget: MemoryBudget? = nil,
                       cancellation: JobCancellation?, into sink: ((UnsafeRawBufferPointer) throws -> Void)?,
                       accept: (JobReport) throws -> Void = { _ in }) throws -> JobReport {
        if cancellation?.isCancelled == true { throw WorkerFailure.cancelled }
        var (box, holdsPermit) = try checkout(for: decoders(input), cancellation: cancellation)
        defer { if holdsPermit { mediaPermits?.give() } }
        let pipe = try sink.map { try OutputPipe(target: -1, name: input.displayName, limit: limit, sink: $0) }
        // No outputs but the pipe: no file is handed to the worker.
        var handedAFile = false
        do {
            let report = try perform(on: &box, spec: spec, input: input, outputs: nil,
                                     planned: pipe == nil ? [] : [PlannedOutput(path: "-")], primary: pipe, handedAFile: &handedAFile, threads: threads,
                                     cancellation: cancellation, budget: budget ?? settings.budget)
            do {
                try accept(report)
            } catch {
                _ = box.worker.end()
                throw error
            }
            checkin(box)
            return report
        } catch let failure as JobFailure {
            checkin(box)
            throw failure
        }
    }

    /// An idle worker that has the decoders (one made for every input has them all), or a new one;
    /// and whether it holds a media permit, which the caller gives back.
    private func checkout(for decoders: JobDecoders, cancellation: JobCancellation? = nil) throws -> (WorkerBox, holdsPermit: Bool) {
        if let failure = setupFailure.withLock({ $0 }) { throw failure }
        guard let permits = mediaPermits else { return (try idleOrNew(decoders, cancellation: cancellation), false) }
        if decoders == .media {
            permits.take()
            do {
                return (try idleOrNew(.media), true)
            } catch {
                permits.give()
                throw error
            }
        }
        // A picture takes an idle picture worker, else the media worker when no video needs it,
        // else a new picture worker: never a second FFmpeg.
        if let box = idle.withLock({ idle in idle.lastIndex { $0.worker.decoders == .pictures }.map { idle.remove(at: $0) } }) {
            return (try readied(box), false)
        }
        if permits.take(waitingAtMost: 0) {
            if let box = idle.withLock({ idle in idle.lastIndex { $0.worker.decoders == .media }.map { idle.remove(at: $0) } }) {
                do {
                    return (try readied(box), true)
                } catch {
                    permits.give()
                    throw error
                }
            }
            permits.give()
        }
        return (try start(.pictures), false)
    }

    private func idleOrNew(_ decoders: JobDecoders, cancellation: JobCancellation? = nil) throws -> WorkerBox {
        let found = idle.withLock { idle -> WorkerBox? in
            guard let index = idle.lastIndex(where: { decoders == .pictures || $0.worker.decoders == .media }) else { return nil }
            return idle.remove(at: index)
        }
        if let box = found { return try readied(box, cancellation: cancellation) }
        return try start(decoders, cancellation: cancellation)
    }

    private func checkin(_ box: WorkerBox) {
        guard !box.worker.isReaped else { return }
        // Past the most kept, the worker goes (its process is ended when the box is dropped).
        let kept = idle.withLock { idle -> Bool in
            if let most = settings.mostIdleWorkers, idle.count >= most { return false }
            idle.append(box)
            return true
        }
        if !kept { _ = box.worker.end() }
    }

    private func start(_ decoders: JobDecoders, cancellation: JobCancellation? = nil) throws -> WorkerBox {
        try readied(WorkerBox(try WorkerProcess(decoders: decoders, settings: settings, zygote: zygote)), cancellation: cancellation)
    }

    /// `box` once its worker has started (at once for one that did). A copy that never started,
    /// its zygote gone, is replaced by a worker started afresh, once: the zygote is a means to
    /// start workers sooner, and its end costs no input.
    private func readied(_ box: WorkerBox, cancellation: JobCancellation? = nil) throws -> WorkerBox {
        guard box.worker.confinement == nil else { return box }
        do {
            try ready(box.worker, cancellation: cancellation)
            return box
        } catch WorkerFailure.didNotStart where box.worker.isCopy && box.worker.pid == nil {
            let worker = try WorkerProcess(decoders: box.worker.decoders, settings: settings)
            try ready(worker, cancellation: cancellation)
            return WorkerBox(worker)
        }
    }

    /// Waits for a worker's start; a worker that cannot confine itself stops the sandbox's use for the run.
    /// Its start is waited for at most 30 s (loading FFmpeg's libraries takes a fraction of one),
    /// less under a short timeout, and not at all once `cancellation` says so.
    private func ready(_ worker: WorkerProcess, cancellation: JobCancellation? = nil) throws {
        do {
            try worker.setUp(settings)
            _ = try worker.awaitReady(seconds: min(30, max(10, settings.timeout)), wakingFor: cancellation?.readEnd)
            if cancellation?.isCancelled == true {
                _ = worker.end()
                throw WorkerFailure.cancelled
            }
        } catch let failure as WorkerFailure {
            if case .unconfined = failure { setupFailure.withLock { $0 = failure } }
            throw failure
        }
    }

    /// Sends the job, moves the output's bytes from its pipe to the output, answers the worker's
    /// requests for more outputs, and waits for its answer, all within the timeout; says what happened.
    /// `outputs`: nil for a job that writes nothing (its report is all), which sends the input alone;
    /// `primary`: the planned output's pipe when it goes elsewhere than `outputs` (to memory).
    /// Each step, and each message of the worker's, is a function of `JobExchange.swift`.
    private func perform(on box: inout WorkerBox, spec: JSONValue, input: InputFile, outputs: OutputSet?, planned: [PlannedOutput],
                         primary: OutputPipe?, writesInPlace: Bool = false, writesInPlaceBeside: FileJob.InPlaceRule? = nil,
                         handedAFile: inout Bool, acceptsProgress: Bool = false, threads: Int,
                         cancellation: JobCancellation?, budget: MemoryBudget?,
                         progress: (@Sendable (JobProgress) -> Void)? = nil) throws -> JobReport {
        let request = WireMessage.job(input: input.displayName, head: try input.head(), outputs: planned, threads: threads, spec: spec).bytes
        let limit = Confinement.largestOutput(maxMemory: settings.maxMemory)
        var exchange = JobExchange(outputs: outputs, budget: budget, outputLimit: limit == 0 ? Int.max : limit,
                                   deadline: Clock.seconds() + settings.timeout)
        // What the worker holds of the budget is given back when the job ends, however it ends (a
        // worker that crashed gives back nothing itself), and a wait for more is given up.
        defer { exchange.endWaiting() }
        exchange.writesInPlaceBeside = writesInPlaceBeside.map { rule in { rule(planned, $0) } }
        // Said however the job ends: a worker with a descriptor of an output could write there later.
        defer { if !exchange.inPlaceBeside.isEmpty { handedAFile = true } }
        exchange.acceptsProgress = acceptsProgress
        exchange.reportsProgress = progress
        if let primary {
            exchange.pipes.append(primary)
        } else if let outputs, writesInPlace {
            exchange.inPlace = (outputs.primary, planned[0].path)
        } else if let outputs {
            exchange.pipes.append(try OutputPipe(target: outputs.primary, name: planned[0].path, limit: exchange.outputLimit))
        }
        let descriptors = [input.descriptor] + (exchange.inPlace.map { [$0.descriptor] } ?? exchange.pipes.map(\.writeEnd))
        box.worker.clearErrors()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: OutputPipe.bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        do {
            try box.worker.channel.send(request, descriptors: descriptors)
        } catch {
            // The worker ended while idle: one new worker, once.
            _ = box.worker.end()
            box = try start(box.worker.decoders, cancellation: cancellation)
            try box.worker.channel.send(request, descriptors: descriptors)
        }
        exchange.pipes.first?.closeWriteEnd()
        exchange.deadline = Clock.seconds() + settings.timeout
        while true {
            if cancellation?.isCancelled == true {
                _ = box.worker.end()
                throw WorkerFailure.cancelled
            }
            if let bytes = exchange.awaitedMemory, let budget { try waitForMemory(bytes, of: budget, in: &exchange, worker: box.worker) }
            let open = exchange.pipes.filter(\.isOpen)
            let left = exchange.deadline - Clock.seconds()
            // The cancellation's pipe last: a cancel wakes the wait at once.
            let ready = Readiness.wait(for: [box.worker.channel.descriptor] + open.map(\.readEnd) + (cancellation.map { [$0.readEnd] } ?? []),
                                       seconds: exchange.awaitedMemory == nil ? left : 0)
            guard let ready else {
                if exchange.awaitedMemory != nil { continue }
                _ = box.worker.end()
                throw WorkerFailure.timedOut(seconds: settings.timeout)
            }
            if cancellation?.isCancelled == true { continue }
            try exchange.pump(open, ready: Array(ready.dropFirst()), through: buffer)
            guard ready[0] else { continue }
            let message = try receive(from: box.worker, before: exchange.deadline)
            if let report = try answer(message, in: &exchange, worker: box.worker, buffer: buffer) { return report }
        }
    }

    /// Why the worker ended, from its wait status and its last words on standard error.
    func failure(ending status: Int32, of worker: WorkerProcess) -> WorkerFailure {
        let signal = status & 0x7F
        let words = worker.drainErrors()
        // The Swift runtime, C++ and AddressSanitizer say so when an allocation fails under the limit.
        let memoryWords = ["Fatal error: failed to allocate", "std::bad_alloc", "AddressSanitizer: out of memory",
                           "AddressSanitizer: requested allocation size", "allocator is out of memory"]
        if signal != 0, memoryWords.contains(where: words.contains) {
            return .overMemory(limit: settings.maxMemory)
        }
        if signal == SIGXCPU { return .overCPUTime(seconds: settings.timeout) }
        // A file written past the worker's size limit (one it writes in place, a web video).
        if signal == SIGXFSZ { return .outputTooLarge(limit: Confinement.largestOutput(maxMemory: settings.maxMemory)) }
        if signal != 0 {
            // The first line, as text a terminal shows as it is, and short.
            let first = words.split(separator: "\n").first.map { line in
                String(String(line).unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.prefix(160).map(Character.init))
            }
            return .crashed(signal: signal, words: first?.isEmpty == false ? first : nil)
        }
        return .exited(status: (status >> 8) & 0xFF)
    }
}

extension SandboxedJobs {
    /// Numbers the reservations workers hold.
    static let nextToken = Atomic<Int>(0)
    /// How long the parent waits for memory a worker asked for before it reads that worker's
    /// messages again (it may be giving back what it waits for).
    static let memoryPoll = 0.02
    /// The most reservations one job holds at once: a decoder holds one a frame size, a job a few.
    static let mostReservations = 4096
    /// The longest error a worker's message gives its caller.
    static let longestMessage = 4096
}

/// A job's own error, said by the worker in its words, with its kind.
public struct JobFailure: ClassifiedError, CustomStringConvertible {
    public let description: String
    public let failureKind: FailureKind

    init(description: String, kind: FailureKind) {
        self.description = description
        self.failureKind = kind
    }

    /// The kind a worker names, trusted only as far as a worker can know it: the installation is
    /// the parent's to judge (a worker that says "deployment" is no worker of this version), and a
    /// name this version does not know is no kind at all.
    init(description: String, kindNamed name: String) {
        let kind = FailureKind(rawValue: name)
        self.init(description: description, kind: kind == nil || kind == .deployment ? .internalFailure : kind!)
    }
}

/// A worker, owned by one batch thread at a time.
typealias WorkerBox = HandedOver<WorkerProcess>

extension HandedOver where Value == WorkerProcess {
    var worker: WorkerProcess { value }
}

/// A caller's means to end a job under way at once (a library call whose task is cancelled): the
/// worker is killed, and what it held of the budget is given back. Its pipe wakes the wait for the
/// worker's messages.
public final class JobCancellation: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32
    private let flag = Atomic<Bool>(false)

    public init() throws(SystemError) {
        var ends: [Int32] = [-1, -1]
        _ = try FileSystem.valueOrErrno("cannot make a pipe for a cancellation") { mt_pipe_cloexec(&ends) }
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    public var isCancelled: Bool { flag.load(ordering: .acquiring) }

    /// From any thread, once or more.
    public func cancel() {
        guard !flag.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
