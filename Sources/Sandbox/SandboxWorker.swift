import Batch
import Failures
import CSandbox
import FileIO
import Glibc
import Imaging
import WorkerPool
import JSON

/// This process as a worker: started by `SandboxedJobs` with a socket, it confines itself and then
/// does the jobs it is sent, one at a time, until the socket closes.
public struct SandboxWorker: Sendable {
    /// Set when this process was started as a worker; nil otherwise.
    public static let current: SandboxWorker? = {
        guard let value = getenv(WorkerProcess.environmentKey), let descriptor = Int32(String(cString: value)) else { return nil }
        let parent = getenv(WorkerProcess.parentKey).flatMap { Int32(String(cString: $0)) } ?? 0
        return SandboxWorker(channel: WorkerChannel(descriptor: descriptor), parent: parent)
    }()

    let channel: WorkerChannel

    /// The run's memory budget, which is the parent's, shared by all its workers: what a job's
    /// decoders reserve is asked of the parent, waited for, and given back (`MemoryBudget.Lender`).
    public var memoryLender: MemoryBudget.Lender {
        let channel = channel
        return MemoryBudget.Lender(borrow: { bytes in
            guard let answer = try? channel.ask(WireMessage.reserveMemory(bytes: bytes).bytes) else { exit(0) }
            switch WireMessage(bytes: answer.bytes) {
            case .memoryReserved(let token)?: return token
            case .memoryRefused?: return nil
            default: exit(71)
            }
        }, giveBack: { token in
            guard (try? channel.send(WireMessage.releaseMemory(token: token).bytes)) != nil else { exit(0) }
        })
    }

    /// What the parent started this worker for: what it must load before its confinement.
    static var decoders: JobDecoders {
        getenv(WorkerProcess.decodersKey).flatMap { JobDecoders(rawValue: String(cString: $0)) } ?? .media
    }

    /// Whether this process was started as the zygote (`WorkerZygote`).
    static var isZygote: Bool { getenv(WorkerProcess.zygoteKey) != nil }

    /// Whether this process is a worker, known without starting anything.
    public static var isRunning: Bool { getenv(WorkerProcess.environmentKey) != nil }
    /// The one argument a worker is started with: no subcommand, and none of the user's words.
    public static let entryPoint = "__worker"
    /// The process that started this worker: when it ends, so does the worker.
    let parent: Int32

    /// What is read from files on first use: the cores (cgroup and affinity files). No thread may
    /// be started before the confinement: Landlock holds only for the thread that asks and the
    /// threads it starts later (Dispatch's pool, started early, ran unconfined beside the decoders).
    static func warmUp() {
        _ = WorkerThreads.cores
    }

    /// Loads what the jobs need (`prepare`: libraries that load on first use), waits for the run's
    /// limits, confines the process, then serves the jobs it is sent until the parent closes the
    /// socket; never returns. `job` makes each job from its spec (the tree the parent sent) for a
    /// number of threads (0: every core), which the parent counts per batch. Nothing of the user's
    /// command line reaches a worker but through its socket.
    /// A job's error reaches the parent with its kind (`FailureKind`), which the library turns
    /// back into its typed error.
    public func serve(prepare: (JobDecoders) throws -> Void, job: (_ spec: JSONValue, _ threads: Int) throws -> FileJob) -> Never {
        // A zygote's copy has its libraries loaded (the zygote's), and the cores counted.
        if Self.isZygote {
            startWorkers(prepare: prepare)
        } else {
            do {
                try prepare(Self.decoders)
                Self.warmUp()
            } catch {
                try? channel.send(WireMessage.unconfined(reason: "\(error)").bytes)
                exit(70)
            }
        }
        guard let setup = try? channel.receive() else { exit(0) }
        guard case .setup(let maxMemory, let timeout, let namesFlags)? = WireMessage(bytes: setup.bytes), setup.descriptors.isEmpty else { exit(71) }
        // The words of the caller: the command line's flags, or the library's settings.
        Setting.nameFlags(namesFlags)
        let confinement = Confinement.apply(maxMemory: maxMemory, threads: WorkerThreads.cores, parent: parent)
        // A zygote's copy runs on the zygote's thread as the Swift runtime knows it: the thread ID
        // its Mutex locks by is cached per thread, and the copy's is the zygote's (the kernel
        // refuses those locks). The rest runs on a new thread, which learns its own; it is
        // started once the confinement holds, so that it holds for it too.
        withoutActuallyEscaping(job) { job in
            let serving = HandedOver { (thread: borrowing WorkerThreads.StartedThread) in
                self.serveJobs(on: thread, confinement: confinement, timeout: timeout, job: job)
            }
            guard WorkerThreads.runOnStartedThread({ serving.value($0) }) else { exit(70) }
        }
        exit(0)
    }

    /// Says how the confinement went, then does the jobs it is sent until the socket closes. On a
    /// started thread only (`StartedThread`): the jobs take locks, which a copy's first thread
    /// cannot.
    private func serveJobs(on _: borrowing WorkerThreads.StartedThread, confinement: Result<Int32, WorkerFailure>, timeout: Double,
                           job: (_ spec: JSONValue, _ threads: Int) throws -> FileJob) -> Never {
        switch confinement {
        case .failure(let failure):
            let reason = if case .unconfined(let text) = failure { text } else { "\(failure)" }
            try? channel.send(WireMessage.unconfined(reason: reason).bytes)
            exit(70)
        case .success(let flags):
            let hello = WireMessage.ready(protocol: WireMessage.protocolVersion, confinement: flags, pid: getpid()).bytes
            if TestTrigger.cutsItsHelloShort {
                // The first packet of the hello, saying more follows, and nothing after it.
                channel.sendFirstPacket(hello)
                while true { pause() }
            }
            guard (try? channel.send(hello)) != nil else { exit(0) }
        }
        // A batch sends one spec again and again: the job made for it last is made once.
        var last: (spec: JSONValue, threads: Int, job: FileJob)?
        while true {
            guard let message = try? channel.receive() else { exit(0) }
            // The input, and the first output's pipe when the job writes any.
            guard case .job(let input, let head, let planned, let threads, let spec)? = WireMessage(bytes: message.bytes),
                  message.descriptors.count == (planned.isEmpty ? 1 : 2) else {
                // Only the parent writes here: anything else means the socket is not what it was.
                exit(71)
            }
            Confinement.limitCPUTime(seconds: timeout, threads: threads == 0 ? WorkerThreads.cores : threads)
            let outputs = WorkerOutputs(channel: channel, primary: planned.isEmpty ? -1 : message.descriptors[1], planned: planned) {
                // A job that goes on is not stuck: its CPU time counts from its progress too.
                Confinement.limitCPUTime(seconds: timeout, threads: threads == 0 ? WorkerThreads.cores : threads)
            }
            let reply: WireMessage
            do {
                let file = try InputFile(adopting: message.descriptors[0], displayName: input, head: head)
                defer { withExtendedLifetime(file) {} }
                if last?.spec != spec || last?.threads != threads { last = (spec, threads, try job(spec, threads)) }
                try TestTrigger.fire(for: input, output: outputs.primary)
                let report: JobReport
                if TestTrigger.answersWithoutWorking(for: input) {
                    report = JobReport()
                } else if TestTrigger.leavesASideOutputEmpty(for: input), planned.count > 1 {
                    try FileSystem.writeAll(Array("written".utf8), to: outputs.primary, target: planned[0].path)
                    outputs.finish(try outputs.open(planned[1].path, namedByUser: false))
                    report = JobReport()
                } else {
                    report = try last!.job.work(file, outputs, planned.first?.path ?? "")
                }
                reply = .done(fields: report.fields.map { JSONMember($0.name, $0.value) }, warnings: report.warnings)
            } catch OutputError.exists(let path) {
                reply = .outputExists(path: path)
            } catch {
                reply = .failed(message: "\(error)", kind: FailureKind(classifying: error).rawValue)
            }
            // The outputs are whole and closed here before the parent is told: it moves them into place.
            outputs.closeAll()
            guard (try? channel.send(reply.bytes)) != nil else { exit(0) }
        }
    }
}

extension SandboxWorker {
    /// As the zygote: starts a worker at each of the parent's requests, a copy of this process
    /// with what it needs loaded here once for all copies. Returns in each copy, which goes on as
    /// a worker; in the zygote, never (it ends when the parent closes the socket, or with the parent).
    func startWorkers(prepare: (JobDecoders) throws -> Void) {
        // With the parent: a zygote outlives no run (no limit but that one).
        if mt_limit_resources(0, 0, parent) != 0 { exit(70) }
        Self.warmUp()
        var prepared: Set<JobDecoders> = []
        while true {
            guard let message = try? channel.receive() else { exit(0) }
            guard case .startWorker(let decoders)? = WireMessage(bytes: message.bytes), message.descriptors.count == 2 else { exit(71) }
            TestTrigger.fireInZygote(.request)
            let reply: WireMessage
            do {
                if !prepared.contains(decoders) {
                    try prepare(decoders)
                    prepared.insert(decoders)
                }
                // A copy of a process with threads would have only the one that forked, and locks
                // the others held. None of the libraries loaded starts one; this says so if one does.
                let threads = mt_thread_count()
                guard threads == 1 else { throw WorkerFailure.unconfined("the zygote runs \(threads) threads") }
                let pid = mt_fork_sibling(message.descriptors[0], message.descriptors[1], WorkerProcess.socketDescriptor)
                if pid == 0 { return }
                if pid < 0 { throw SystemError("cannot start a worker") }
                TestTrigger.fireInZygote(.forked)
                reply = .workerStarted(pid: pid)
            } catch {
                reply = .unconfined(reason: "\(error)")
                // The worker's socket says so too, as a worker that could not start says it.
                _ = try? WorkerChannel(descriptor: dup(message.descriptors[0])).send(reply.bytes)
            }
            message.descriptors.forEach { close($0) }
            guard (try? channel.send(reply.bytes)) != nil else { exit(0) }
        }
    }
}

/// A worker's outputs: the planned one it was sent, and others asked of the parent, which opens
/// them (if they are the job's) and sends their descriptors.
final class WorkerOutputs: JobOutputs {
    private let channel: WorkerChannel
    let primary: Int32
    let planned: [PlannedOutput]
    private var opened: [Int32] = []
    private let progressed: () -> Void
    /// When progress was last told: at most once a second.
    private var lastTold = 0.0

    init(channel: WorkerChannel, primary: Int32, planned: [PlannedOutput], progressed: @escaping () -> Void = {}) {
        self.channel = channel
        self.primary = primary
        self.planned = planned
        self.progressed = progressed
    }

    func progress(_ progress: JobProgress) {
        let now = Clock.seconds()
        guard now - lastTold >= 1 else { return }
        lastTold = now
        progressed()
        guard (try? channel.send(WireMessage.progress(progress).bytes)) != nil else { exit(0) }
    }

    func open(_ path: String, namedByUser: Bool) throws -> Int32 {
        guard let answer = try channel.ask(WireMessage.openOutput(path: path, namedByUser: namedByUser).bytes) else { exit(0) }
        switch WireMessage(bytes: answer.bytes) {
        case .outputOpened? where answer.descriptors.count == 1:
            opened.append(answer.descriptors[0])
            TestTrigger.opened(answer.descriptors[0])
            return answer.descriptors[0]
        case .outputRefused(let message)?:
            answer.descriptors.forEach { close($0) }
            throw JobFailure(description: message, kind: .writeFailed)
        default:
            exit(71)
        }
    }

    /// Closing its end is what tells the parent the output is whole.
    func finish(_ descriptor: Int32) {
        guard let index = opened.firstIndex(of: descriptor) else { return }
        close(descriptor)
        opened.remove(at: index)
    }

    func closeAll() {
        if primary >= 0 { close(primary) }
        opened.forEach { close($0) }
        opened = []
    }
}
