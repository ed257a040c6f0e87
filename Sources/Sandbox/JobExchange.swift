import Batch
import FileIO
import Glibc
import Imaging
import JSON
import Synchronization

/// What the parent keeps of one job's exchange with its worker (`SandboxedJobs.perform`): the
/// outputs' pipes, the memory the worker holds and waits for, and the job's deadline.
struct JobExchange {
    let outputs: OutputSet?
    let budget: MemoryBudget?
    /// The most bytes one output may have.
    let outputLimit: Int
    /// When the job's time is up; moved on by what waits that are not the worker's took.
    var deadline: Double
    var pipes: [OutputPipe] = []
    /// Side outputs the worker closed without writing a byte: no failure yet, since a worker that
    /// fails closes its outputs before its message comes (which then says why); its "done" with
    /// one of them is one (`done`).
    var closedEmpty: [String] = []
    /// The first output refused to the worker: the job's failure, when it fails.
    var refusal: (any Error)?
    /// What the worker holds of the run's budget, by token: all of it given back when the job ends.
    var held: [Int: MemoryBudget.Reservation] = [:]
    /// Memory the worker asked for and waits for: its answer is sent once the bytes are had.
    /// Meanwhile its other messages are read, for what it gives back may be what it waits for.
    var awaitedMemory: Int?
    /// How long the job has waited for memory in all.
    var memoryWait = 0.0
    /// This job as the budget knows it: what it holds and whether it waits.
    let holder: Int?
    /// The planned output where the worker writes it itself (a web video, whose muxer seeks back
    /// in it): its descriptor, the worker's copy bounded by its file size limit.
    var inPlace: (descriptor: Int32, name: String)?
    /// Which other outputs the worker writes itself (`FileJob.writesInPlaceBeside`), and those it was given.
    var writesInPlaceBeside: ((String) -> Bool)?
    var inPlaceBeside: [(descriptor: Int32, name: String)] = []
    /// Whether the job may say it progresses: one long by nature (`FileJob.progresses`: a web
    /// video, an HLS ladder), whether it writes in place or, to a pipe, streams.
    var acceptsProgress = false
    /// The frames the worker last said it made (`WireMessage.progress`): only more move the deadline on.
    var progressFrames = 0
    /// The latest a job may end however it progresses.
    let latestEnd: Double
    /// Who shows the job's progress (a progress line, `--json`'s events); nil: nobody.
    var reportsProgress: (@Sendable (JobProgress) -> Void)?

    init(outputs: OutputSet?, budget: MemoryBudget?, outputLimit: Int, deadline: Double) {
        self.outputs = outputs
        self.budget = budget
        self.outputLimit = outputLimit
        self.deadline = deadline
        latestEnd = Clock.seconds() + JobExchange.longestJob
        holder = budget?.newHolder()
    }

    /// The longest any job may take, progressing all along: a web video of hours, at a few times
    /// its length on a slow machine.
    static let longestJob = 12.0 * 3600

    /// The worker made `frames` frames so far: where that is more than before, the job is not
    /// stuck, and its time limit (`timeout`) counts from now, up to `latestEnd`.
    mutating func progressed(to frames: Int, timeout: Double) {
        guard frames > progressFrames else { return }
        progressFrames = frames
        deadline = min(latestEnd, max(deadline, Clock.seconds() + timeout))
    }

    /// Gives back all the worker holds, and stops waiting for more.
    mutating func endWaiting() {
        held.removeAll()
        if let holder { budget?.endWaiting(holder) }
    }

    /// Holds `reservation` for the worker: its token.
    mutating func hold(_ reservation: MemoryBudget.Reservation) -> Int {
        let token = SandboxedJobs.nextToken.add(1, ordering: .relaxed).newValue
        held[token] = reservation
        return token
    }

    /// Moves what the ready pipes of `open` hold to their outputs; an output whose pipe the worker
    /// closed is whole: closed here too, and its pipe let go, so that a job of thousands holds a
    /// few (the planned output's stays to the end).
    mutating func pump(_ open: [OutputPipe], ready: [Bool], through buffer: UnsafeMutableRawBufferPointer) throws {
        for (pipe, isReady) in zip(open, ready) where isReady {
            // A caller that takes the bytes in memory may take its time (a loop over frames):
            // that time is not the worker's.
            let pumped = Clock.seconds()
            try pipe.pump(through: buffer)
            if pipe.target < 0 { deadline += Clock.seconds() - pumped }
        }
        for pipe in pipes.dropFirst() where !pipe.isOpen {
            if pipe.written == 0 {
                closedEmpty.append(pipe.name)
                continue
            }
            try outputs?.finish(pipe.target)
        }
        if pipes.count > 1 { pipes = [pipes[0]] + pipes.dropFirst().filter(\.isOpen) }
    }
}

/// The parent's side of a job's exchange, a step or a message at a time.
extension SandboxedJobs {
    /// Waits a moment for the `bytes` the worker asked for, then lets its messages be read. The
    /// wait is not this input's time: its deadline moves on by what the wait took (the others'
    /// own deadlines bound how long they hold the memory). A waiter is ended only where the
    /// budget is stuck (nothing given back for the timeout and half as much again) and it is the
    /// waiter holding the most, so that none holds the others hostage by asking for what is never
    /// given back, and an input queued behind a hostile one is never the one that pays.
    func waitForMemory(_ bytes: Int, of budget: MemoryBudget, in exchange: inout JobExchange, worker: WorkerProcess) throws {
        guard let waiting = exchange.holder else { return }
        let asked = Clock.seconds()
        budget.beginWaiting(waiting)
        defer {
            let waited = Clock.seconds() - asked
            exchange.deadline += waited
            exchange.memoryWait += waited
        }
        if budget.givesUp(waiting, after: SandboxSettings.memoryStall(timeout: settings.timeout)) {
            _ = worker.end()
            throw WorkerFailure.starvedOfMemory(seconds: exchange.memoryWait, limit: budget.total)
        }
        guard let reservation = budget.reserve(bytes, for: waiting, waitingAtMost: Self.memoryPoll) else { return }
        budget.endWaiting(waiting)
        exchange.awaitedMemory = nil
        try send(.memoryReserved(token: exchange.hold(reservation)), to: worker)
    }

    /// The worker's next message, its descriptors closed (a worker sends none); one too long, cut
    /// short or not come by `deadline` ends the worker.
    func receive(from worker: WorkerProcess, before deadline: Double) throws -> [UInt8] {
        do {
            guard let received = try worker.channel.receive(seconds: deadline - Clock.seconds()) else {
                // Only an ending worker closes its socket; one that closed it and lives on is ended.
                throw failure(ending: worker.end(), of: worker)
            }
            received.descriptors.forEach { close($0) }
            return received.bytes
        } catch let error as SystemError where error.code == ETIMEDOUT {
            _ = worker.end()
            throw WorkerFailure.timedOut(seconds: settings.timeout)
        } catch is SystemError {
            // An answer too long or cut short: no answer.
            _ = worker.end()
            throw WorkerFailure.malformedReply
        }
    }

    /// Answers one message of the worker's: the job's report when it is done, nil while it goes on.
    func answer(_ bytes: [UInt8], in exchange: inout JobExchange, worker: WorkerProcess,
                buffer: UnsafeMutableRawBufferPointer) throws -> JobReport? {
        switch WireMessage(bytes: bytes) {
        case .done(let fields, let warnings)?:
            return try done(fields: fields, warnings: warnings, exchange: exchange, buffer: buffer)
        case .failed(let message, let kind)?:
            // An output this process would not open is said as its own error, which the batch
            // knows (an output another run made meanwhile is skipped, not failed).
            if let refusal = exchange.refusal { throw refusal }
            // A worker's words, as long as a line may be.
            throw JobFailure(description: String(message.prefix(Self.longestMessage)), kindNamed: kind)
        case .outputExists(let path)? where FileIdentity(path: path) != nil:
            // The worker's word, taken only for a file that is there.
            throw OutputError.exists(path: path)
        case .outputExists(let path)?:
            throw JobFailure(description: "\(OutputError.exists(path: path))", kind: .writeFailed)
        case .reserveMemory(let asked)? where exchange.awaitedMemory == nil && exchange.held.count < Self.mostReservations:
            try reserve(asked, in: &exchange, worker: worker)
        case .releaseMemory(let token)?:
            exchange.held[token] = nil
        case .progress(let progress)? where exchange.acceptsProgress:
            // Only a job that writes its output in place (a web video) is long by nature: any
            // other's worker that says it progresses (a picture's decoder taken over) is wrong,
            // and would hold its slot for `longestJob` instead of `--timeout`.
            exchange.progressed(to: progress.frames, timeout: settings.timeout)
            exchange.reportsProgress?(progress)
        case .openOutput(let path, let namedByUser)?:
            try openOutput(path, namedByUser: namedByUser, in: &exchange, worker: worker)
        default:
            // Anything else, a second question for memory before the first's answer among them,
            // or reservations without number (which would grow this process's memory), is not
            // this protocol.
            _ = worker.end()
            throw WorkerFailure.malformedReply
        }
        return nil
    }

    /// The worker's "done": its report, once every output it wrote is whole and none is empty.
    private func done(fields: [JSONMember], warnings: [String], exchange: JobExchange,
                      buffer: UnsafeMutableRawBufferPointer) throws -> JobReport {
        // The worker closed its ends before it answered: what they held is all there is.
        for pipe in exchange.pipes { try pipe.pump(through: buffer, draining: true) }
        // A worker that says it is done with an output it never wrote is wrong: an empty
        // file put in place would be reported "ok".
        if let empty = exchange.pipes.first(where: { $0.written == 0 })?.name ?? exchange.closedEmpty.first { throw WorkerFailure.emptyOutput(name: empty) }
        for inPlace in (exchange.inPlace.map { [$0] } ?? []) + exchange.inPlaceBeside
            where (FileSystem.status(ofDescriptor: inPlace.descriptor)?.st_size ?? 0) <= 0 {
            throw WorkerFailure.emptyOutput(name: inPlace.name)
        }
        for beside in exchange.inPlaceBeside { try exchange.outputs?.finish(beside.descriptor) }
        // A job that writes nothing is its report: an empty one is no answer either.
        if exchange.pipes.isEmpty && exchange.inPlace == nil && fields.isEmpty { throw WorkerFailure.emptyOutput(name: "its report") }
        // The batch's own fields are the batch's: a worker gone wrong does not write them.
        let own: Set<String> = ["input", "output", "status", "error", "ms"]
        return JobReport(fields: fields.filter { !own.contains($0.name) }.map { (name: $0.name, value: $0.value) },
                         warnings: warnings)
    }

    /// The worker asks for `bytes` of the run's budget: held and said at once, or waited for
    /// (`waitForMemory`), or refused where they can never be had.
    private func reserve(_ bytes: Int, in exchange: inout JobExchange, worker: WorkerProcess) throws {
        var reply = WireMessage.memoryRefused
        // Asking for more than it holds could ever leave is no error: a job's two passes take
        // turns at the worker's memory. The wait is bounded by the timeout (`waitForMemory`).
        if let budget = exchange.budget, bytes >= 0, bytes <= budget.total {
            // Had now, or answered once the other workers (or this one) give back enough.
            guard let reservation = budget.reserve(bytes, for: exchange.holder, waitingAtMost: 0) else {
                exchange.awaitedMemory = bytes
                return
            }
            reply = .memoryReserved(token: exchange.hold(reservation))
        } else if exchange.budget == nil {
            // No shared budget: the worker's own limits hold alone.
            reply = .memoryReserved(token: 0)
        }
        try send(reply, to: worker)
    }

    /// The worker asks for another output: opened where the job may write it (its pipe sent), or
    /// refused, the refusal kept as the job's failure.
    private func openOutput(_ path: String, namedByUser: Bool, in exchange: inout JobExchange, worker: WorkerProcess) throws {
        var reply = WireMessage.outputOpened
        var pipe: OutputPipe?
        var handed: [Int32] = []
        do {
            guard let outputs = exchange.outputs else { throw JobOutputError.notAllowed(path: path) }
            // Jobs finish each output before the next: a worker that holds many open is wrong.
            guard exchange.pipes.count <= OutputPipe.mostOpen else { throw JobOutputError.tooManyOpen(limit: OutputPipe.mostOpen) }
            let target = try outputs.open(path, namedByUser: namedByUser)
            if exchange.writesInPlaceBeside?(path) == true, FileSystem.isRewritableFile(target) {
                // The worker writes it itself, within its file size limit; put in place once it is done.
                exchange.inPlaceBeside.append((target, path))
                handed = [target]
            } else {
                pipe = try OutputPipe(target: target, name: path, limit: exchange.outputLimit)
                handed = pipe.map { [$0.writeEnd] } ?? []
            }
        } catch {
            reply = .outputRefused(message: "\(error)")
            exchange.refusal = exchange.refusal ?? error
        }
        try send(reply, to: worker, descriptors: handed)
        pipe?.closeWriteEnd()
        if let pipe { exchange.pipes.append(pipe) }
    }

    /// Sends `message` to the worker; one that cannot be told is ended, and its ending is the error.
    private func send(_ message: WireMessage, to worker: WorkerProcess, descriptors: [Int32] = []) throws {
        do {
            try worker.channel.send(message.bytes, descriptors: descriptors)
        } catch {
            throw failure(ending: worker.end(), of: worker)
        }
    }
}
