import Batch
import CMediaToolSystem
import CSandbox
import FileIO
import Glibc
import WorkerPool

/// One worker: mediatool itself as `mediatool __worker`, which loads its decoders, is sent the
/// run's limits, confines itself and then does one job at a time, each sent as a typed spec with
/// its descriptors. It is a copy of the run's zygote (`WorkerZygote`), or a fresh exec. Its
/// command line carries none of the user's arguments: no input's name or option shows in `ps` to
/// other users.
final class WorkerProcess {
    /// The environment variable that makes mediatool a worker: the descriptor of its socket.
    static let environmentKey = "MEDIATOOL_SANDBOX_WORKER"
    /// The parent's process ID, which the worker checks it still has once it asked to end with it.
    static let parentKey = "MEDIATOOL_SANDBOX_PARENT"
    /// What the worker is to load: a `JobDecoders`.
    static let decodersKey = "MEDIATOOL_SANDBOX_DECODERS"
    /// Set for the zygote, which starts workers as copies of itself (`WorkerZygote`).
    static let zygoteKey = "MEDIATOOL_SANDBOX_ZYGOTE"
    static let socketDescriptor: Int32 = 3
    /// The variables a worker is given of its parent's: where libraries are found, the locale and
    /// time zone, the sanitizers' settings (for the tests' sanitized runs), the tests' own.
    static let passedOn: Set<String> = [
        "PATH", "LD_LIBRARY_PATH", "LANG", "LC_ALL", "LC_CTYPE", "LC_NUMERIC", "TZ", "TMPDIR",
        "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "MEDIATOOL_TEST_WORKER_TRIGGER", "MEDIATOOL_TEST_ZYGOTE_TRIGGER", "MEDIATOOL_CGROUP_CPU_MAX",
    ]

    let channel: WorkerChannel
    /// What the worker writes to standard error (its libraries' words, the runtime's on a crash).
    private let errors: Int32
    /// The first and the last `keptErrorBytes` of what it wrote since its job began: a report's
    /// first line says why it ended (AddressSanitizer's "out of memory"), and may be followed by
    /// more stack frames than any fixed tail holds (each naming the binary's path).
    private var errorHead: [UInt8] = []
    private var errorTail: [UInt8] = []
    static let keptErrorBytes = 4096
    private(set) var isReaped = false
    /// `MT_CONFINED_` flags the worker reported once it was set up; nil until it did.
    private(set) var confinement: Int32?

    /// What the worker loads before its confinement, and so what it can decode.
    let decoders: JobDecoders
    /// The run's limits were sent (`setUp`).
    private(set) var isSetUp = false

    /// A worker with `decoders` loaded: a copy of the zygote's when it has one to give, else a
    /// process of its own.
    init(decoders: JobDecoders = .media, settings: SandboxSettings, zygote: WorkerZygote? = nil) throws {
        self.decoders = decoders
        if let zygote, let started = zygote.start(decoders) {
            (channel, errors, request, isCopy) = (started.channel, started.errors, (zygote, started.request), true)
        } else {
            let launched = try Self.spawn(role: .worker(decoders), settings: settings)
            (knownPID, channel, errors, isCopy) = (launched.pid, launched.channel, launched.errors, false)
            LiveChildren.add(launched.pid)
        }
    }

    /// The worker's process; nil for a zygote's copy that was never started (its socket says why).
    /// A copy's is the zygote's answer, read when first needed: its start does not wait for it.
    var pid: pid_t? { resolvedPID(waiting: true) }

    /// The worker's process, its zygote's answer waited for or not (nil then when not answered
    /// yet; the request is then abandoned, and its copy ended when the answer comes).
    private func resolvedPID(waiting: Bool) -> pid_t? {
        guard let (zygote, number) = request else { return knownPID }
        switch zygote.answer(to: number, waiting: waiting) {
        case .started(let pid):
            knownPID = pid
            LiveChildren.add(pid)
        case .none: zygoteGaveNone = true
        case .pending: zygote.abandon(number)
        }
        request = nil
        return knownPID
    }
    private var knownPID: pid_t?
    /// The zygote's request that started the worker, while its answer is unread.
    private var request: (zygote: WorkerZygote, number: Int)?
    /// Whether the worker was asked of a zygote.
    let isCopy: Bool
    /// The zygote answered that it started none, or ended without an answer: a copy it made
    /// then says its process itself.
    private var zygoteGaveNone = false

    /// What a worker process is started as: a worker that loads `decoders`, or the zygote.
    enum Role {
        case worker(JobDecoders)
        case zygote
    }

    /// A started process: its ID, the parent's end of its socket, and the read end of its
    /// standard error (non-blocking).
    struct Launched: Sendable {
        let pid: pid_t
        let channel: WorkerChannel
        let errors: Int32
    }

    /// Starts `mediatool __worker` afresh, as `role`.
    static func spawn(role: Role, settings: SandboxSettings) throws -> Launched {
        let (parentEnd, childEnd) = try WorkerChannel.pair()
        let errorPipe = try errorPipe()
        defer { close(errorPipe.writeEnd) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Standard output is the JSON report's: a worker never writes there.
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, errorPipe.writeEnd, STDERR_FILENO)
        posix_spawn_file_actions_adddup2(&actions, childEnd.descriptor, Self.socketDescriptor)
        // Nothing else of this process's reaches the worker, close-on-exec or not: no folder held
        // open, no other input, no other worker's socket.
        let closing = mt_spawn_close_from(&actions, Self.socketDescriptor + 1)
        guard closing == 0 else { throw SystemError("cannot start a worker", code: closing) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Signals blocked in this thread (the batch's signal handling) are not the worker's.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        // A session of its own: no controlling terminal to type into, and the terminal's signals
        // are not sent to it (the batch ends its workers itself).
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK) | mt_spawn_setsid_flag())
        // What the worker's libraries and runtime read, and nothing else of the caller's: a server's
        // environment holds its secrets, and a worker taken over by a file could send them back in
        // a picture or a message.
        var environment = ProcessInfoLite.environment.filter { Self.passedOn.contains(String($0.prefix { $0 != "=" })) }
        // The C library reserves 64 MiB of address space per malloc arena, up to eight a core: under
        // the address-space limit, two a core leave the room for what is decoded.
        let tunables = (getenv("GLIBC_TUNABLES").map { String(cString: $0) + ":" } ?? "")
            + "glibc.malloc.arena_max=\(2 * max(1, WorkerThreads.cores))"
        environment.append("GLIBC_TUNABLES=" + tunables)
        let roleVariable = switch role {
        case .worker(let decoders): "\(Self.decodersKey)=\(decoders.rawValue)"
        case .zygote: "\(Self.zygoteKey)=1"
        }
        environment += ["\(Self.environmentKey)=\(Self.socketDescriptor)", "\(Self.parentKey)=\(getpid())", roleVariable,
                        // A crash is reported by the parent; the runtime's backtracer would exec a program.
                        "SWIFT_BACKTRACE=enable=no"] + settings.environment
        var pid: pid_t = 0
        let status = WorkerSpawner.run {
            // The process ends (a signal): it starts nothing it would leave behind.
            if LiveChildren.isEnding { return EAGAIN }
            return Self.withCStrings(["mediatool", SandboxWorker.entryPoint]) { argv in
                Self.withCStrings(environment) { envp in
                    posix_spawn(&pid, settings.executable, &actions, &attributes, argv, envp)
                }
            }
        }
        guard status == 0 else {
            close(errorPipe.readEnd)
            throw SystemError("cannot start a worker", code: status)
        }
        withExtendedLifetime(childEnd) {}
        return Launched(pid: pid, channel: parentEnd, errors: errorPipe.readEnd)
    }

    /// A pipe for a worker's standard error: its read end non-blocking, both close-on-exec.
    static func errorPipe() throws -> (readEnd: Int32, writeEnd: Int32) {
        var ends: [Int32] = [-1, -1]
        _ = try FileSystem.valueOrErrno("cannot make a pipe for a worker") { mt_pipe_cloexec(&ends) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        return (ends[0], ends[1])
    }

    deinit {
        close(errors)
        if !isReaped { _ = end() }
    }

    /// Whether `pid` is a process this one may wait for (its child, ended or not).
    static func isChild(_ pid: pid_t) -> Bool {
        guard pid > 0 else { return false }
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0
    }

    /// Sends the worker SIGKILL without waiting for its end (`end`, or letting it go, waits).
    func kill() {
        if !isReaped, let pid = resolvedPID(waiting: false) { Glibc.kill(pid, SIGKILL) }
    }

    /// Sends the run's limits, which the worker waits for before it confines itself (once).
    func setUp(_ settings: SandboxSettings) throws {
        guard !isSetUp else { return }
        do {
            try channel.send(WireMessage.setup(maxMemory: settings.maxMemory, timeout: settings.timeout, namesFlags: Setting.namesFlagsNow).bytes)
        } catch {
            throw WorkerFailure.didNotStart(ending: end())
        }
        isSetUp = true
    }

    /// The worker's first message: confined, or why not. `wakingFor`: a descriptor whose becoming
    /// readable (a caller's cancellation) ends the wait at once, the worker ended.
    func awaitReady(seconds: Double, wakingFor other: Int32? = nil) throws -> Int32 {
        let watched = [channel.descriptor] + (other.map { [$0] } ?? [])
        var ready: [Bool]?
        if let zygote = request?.zygote {
            // A copy's zygote stopped by a stranger's SIGSTOP never makes the copy (it held every
            // run 30 s): looked at while the copy is awaited, it is given up at once, and the
            // copy replaced by a worker started afresh.
            let deadline = Clock.seconds() + seconds
            repeat {
                ready = Readiness.wait(for: watched, seconds: max(0, min(WorkerZygote.stoppedCheckInterval, deadline - Clock.seconds())))
            } while ready == nil && Clock.seconds() < deadline && !zygote.givesUpIfStopped()
        } else {
            ready = Readiness.wait(for: watched, seconds: seconds)
        }
        guard let ready, ready[0] else {
            let ending = end()
            if let ready, ready.count > 1, ready[1] { throw WorkerFailure.cancelled }
            throw WorkerFailure.didNotStart(ending: ending)
        }
        // A socket closed, or reset by a zygote that ended before it made the worker: no start.
        // The rest of a hello begun is waited for as long as its start, no longer.
        guard let message = try? channel.receive(seconds: seconds) else {
            throw WorkerFailure.didNotStart(ending: end())
        }
        // A worker sends no descriptor: any that came with its hello is closed, not kept.
        message.descriptors.forEach { close($0) }
        switch WireMessage(bytes: message.bytes) {
        case .ready(let version, _, _)? where version != WireMessage.protocolVersion:
            _ = end()
            throw WorkerFailure.otherProtocol(worker: version, own: WireMessage.protocolVersion)
        case .ready(_, let flags, let reported)?:
            // A zygote's answer comes as its copy starts: read now, no wait is left for it. A copy
            // whose zygote ended before it answered says its own process, taken only where it is
            // this process's child; a worker whose process is not known gets no job, for it could
            // never be ended.
            if pid == nil, isCopy, Self.isChild(reported) {
                knownPID = reported
                LiveChildren.add(reported)
            }
            guard knownPID != nil else { throw WorkerFailure.didNotStart(ending: end()) }
            confinement = flags
            return flags
        case .unconfined(let reason)?:
            throw WorkerFailure.unconfined(reason)
        default:
            throw WorkerFailure.malformedReply
        }
    }

    /// The last of what the worker wrote to standard error, read without waiting (at most 4 KiB kept).
    func drainErrors() -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(errors, &buffer, buffer.count)
            if count <= 0 { break }
            var chunk = buffer[..<count]
            let intoHead = min(chunk.count, Self.keptErrorBytes - errorHead.count)
            errorHead += chunk.prefix(intoHead)
            chunk = chunk.dropFirst(intoHead)
            errorTail += chunk
            if errorTail.count > Self.keptErrorBytes { errorTail.removeFirst(errorTail.count - Self.keptErrorBytes) }
        }
        return String(decoding: errorHead + errorTail, as: UTF8.self)
    }

    func clearErrors() {
        _ = drainErrors()
        errorHead = []
        errorTail = []
    }

    /// Kills the worker (if it still runs) and says how it ended.
    /// A copy whose zygote has not said its process yet is not waited for: it ends by itself
    /// once its socket is closed, and is reaped when the zygote's answer comes.
    func end() -> Int32 {
        if resolvedPID(waiting: false) == nil, zygoteGaveNone, !isReaped { learnPIDFromReady() }
        if let pid = resolvedPID(waiting: false) { Glibc.kill(pid, SIGKILL) }
        return reap()
    }

    /// A copy whose zygote ended before it said the copy's process says it itself (`ready`):
    /// taken where it is this process's child, so that the copy is ended and waited for, not left.
    /// Waited for a moment at most: where the zygote made no copy, its end closed the socket.
    private func learnPIDFromReady() {
        guard Readiness.wait(for: [channel.descriptor], seconds: 2) != nil,
              let message = try? channel.receive(seconds: 2) else { return }
        message.descriptors.forEach { close($0) }
        if case .ready(let version, _, let reported)? = WireMessage(bytes: message.bytes), version == WireMessage.protocolVersion,
           Self.isChild(reported) {
            knownPID = reported
            LiveChildren.add(reported)
        }
    }

    /// Waits for the worker to end; its wait status (a copy the zygote never started: as a worker
    /// that could not set itself up, exit status 70).
    @discardableResult
    func reap() -> Int32 {
        var status: Int32 = 70 << 8
        if let pid = resolvedPID(waiting: false) {
            FileSystem.retryingInterrupted { waitpid(pid, &status, 0) }
            LiveChildren.remove(pid)
        }
        isReaped = true
        return status
    }

    private static func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
        let copies = strings.map { strdup($0) } + [nil]
        defer { copies.forEach { free($0) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// The process's environment as `NAME=value` strings, read from the C library.
enum ProcessInfoLite {
    static var environment: [String] {
        var result: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            result.append(String(cString: pointer))
            entry += 1
        }
        return result
    }
}

/// The one thread that starts workers. A worker ends when the thread that started it ends
/// (PR_SET_PDEATHSIG is tied to the thread): this one lasts as long as the process, while the
/// batch's threads end one by one and hand their workers on.
enum WorkerSpawner {
    /// Runs `body` on the spawning thread and returns its result.
    static func run<Result>(_ body: () -> Result) -> Result {
        withoutActuallyEscaping(body) { body in
            var result: Result?
            var task: () -> Void = { result = body() }
            withUnsafeMutablePointer(to: &task) { pointer in
                mt_run_on_spawner_thread({ context in
                    context!.assumingMemoryBound(to: (() -> Void).self).pointee()
                }, pointer)
            }
            return result!
        }
    }
}
