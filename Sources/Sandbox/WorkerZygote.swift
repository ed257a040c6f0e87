import Batch
import CSandbox
import FileIO
import Glibc
import Synchronization

/// A process started once, from which workers are copied: a new worker then costs a fork (a
/// millisecond or two) instead of a process's start (about 12 ms of CPU), and one with FFmpeg
/// does not load FFmpeg's 140 libraries again (about 40 ms): the zygote loads them once, on its
/// first request for a worker that needs them.
///
/// The zygote is never sent an input or a job: it reads this process's requests only, so it is
/// not confined (it must fork and load libraries). Each copy confines itself, as every worker
/// does, before its first job. A copy is this process's child (`mt_fork_sibling`), waited for and
/// ended as any worker. Where the zygote cannot serve (it ended, or answered nonsense), workers
/// are started afresh.
///
/// A request does not wait: the new worker's socket is had at once, and the zygote's answer (the
/// copy's process ID) is read when it is first needed, so that starting a run's first workers
/// overlaps its planning as a fresh start does.
final class WorkerZygote: Sendable {
    private let settings: SandboxSettings
    /// Held while a request is sent: requests are numbered in the order the zygote reads them.
    private let requests = Mutex<Requests>(Requests())
    /// Held while answers are read: the zygote answers in the order of the requests.
    private let answers = Mutex<Answers>(Answers())

    private struct Requests {
        var zygote: Zygote = .notStarted
        var sent = 0
    }

    private struct Answers {
        /// The process ID each request was answered with (nil: none started), for those read.
        var pids: [Int: pid_t?] = [:]
        var read = 0
        /// The zygote failed to answer: no later answer is waited for.
        var broken = false
        /// Requests given up before their answer: their copies are ended as it is read.
        var abandoned: Set<Int> = []
    }

    private enum Zygote {
        case notStarted
        case running(WorkerProcess.Launched)
        /// Workers are started afresh; the zygote, if one was started, was ended and waited for.
        case unusable
    }

    init(settings: SandboxSettings) {
        self.settings = settings
    }

    /// The zygote started before the run knew it needed one (`prestart`), until a run takes it.
    private static let prestarted = Mutex<WorkerZygote?>(nil)

    /// Starts a zygote now, before the run that will ask for workers is planned: its start and its
    /// loading of FFmpeg then overlap the planning. A `SandboxedJobs` of the same executable,
    /// environment takes it (`take`); one that none takes is ended when the process exits.
    static func prestart(settings: SandboxSettings) {
        let zygote = WorkerZygote(settings: settings)
        zygote.requests.withLock { requests in
            requests.zygote = Self.spawn(settings: settings)
        }
        prestarted.withLock { $0 = zygote }
        // One no run took (a usage error) is ended and waited for as the process exits: an orphan
        // is left to whatever reaps them, which in a container may be nothing.
        atexit { _ = WorkerZygote.prestarted.withLock { prestarted in prestarted.take() } }
    }

    /// The zygote started beforehand for these settings, or a new one.
    static func take(for settings: SandboxSettings) -> WorkerZygote {
        let started = prestarted.withLock { prestarted -> WorkerZygote? in
            defer { prestarted = nil }
            guard let zygote = prestarted, zygote.settings.executable == settings.executable,
                  zygote.settings.environment == settings.environment else { return nil }
            return zygote
        }
        return started ?? WorkerZygote(settings: settings)
    }

    deinit {
        guard let zygote = requests.withLock({ requests -> WorkerProcess.Launched? in
            if case .running(let zygote) = requests.zygote { return zygote }
            return nil
        }) else { return }
        Self.end(zygote)
        // Every answer it sent is in its socket now that it ended: the copies it names of the
        // requests given up (every request still unanswered, as each worker holds this object)
        // are ended and waited for.
        answers.withLock { answers in
            guard !answers.broken else { return }
            while Readiness.wait(for: [zygote.channel.descriptor], seconds: 0) != nil,
                  let message = try? zygote.channel.receive(seconds: 0) {
                message.descriptors.forEach { close($0) }
                answers.read += 1
                guard case .workerStarted(let pid)? = WireMessage(bytes: message.bytes),
                      answers.abandoned.remove(answers.read) != nil else { continue }
                LiveChildren.endAndWait(pid)
            }
        }
    }

    /// Sends the zygote SIGKILL without waiting for its end (letting it go waits).
    func kill() {
        requests.withLock { requests in
            switch requests.zygote {
            case .running(let zygote): Glibc.kill(zygote.pid, SIGKILL)
            default: break
            }
        }
    }

    private static func spawn(settings: SandboxSettings) -> Zygote {
        guard let zygote = try? WorkerProcess.spawn(role: .zygote, settings: settings) else { return .unusable }
        LiveChildren.add(zygote.pid)
        return .running(zygote)
    }

    /// Whether the zygote was found stopped (by SIGSTOP or a tracer); one that is is given up:
    /// ended and waited for, and later workers are started afresh.
    func givesUpIfStopped() -> Bool {
        requests.withLock { requests in
            guard case .running(let zygote) = requests.zygote, Self.isStopped(zygote.pid) else { return false }
            Self.giveUp(&requests)
            return true
        }
    }

    /// Ends the zygote and waits for it at once (no signal may reach its process ID once another
    /// process has it); later workers are started afresh.
    private static func giveUp(_ requests: inout Requests) {
        if case .running(let zygote) = requests.zygote { end(zygote) }
        requests.zygote = .unusable
    }

    private static func end(_ zygote: WorkerProcess.Launched) {
        close(zygote.errors)
        LiveChildren.endAndWait(zygote.pid)
    }

    /// A new worker with `decoders` loaded, not yet set up: its socket and standard error, and the
    /// number of the request, whose answer `answer(to:)` reads. Nil where the zygote cannot start one.
    func start(_ decoders: JobDecoders) -> (channel: WorkerChannel, errors: Int32, request: Int)? {
        requests.withLock { requests in
            if case .notStarted = requests.zygote {
                requests.zygote = Self.spawn(settings: settings)
            }
            guard case .running(let zygote) = requests.zygote else { return nil }
            // Its standard error is read so that it never fills: a zygote has nothing to say.
            Self.drain(zygote.errors)
            guard let (parentEnd, childEnd) = try? WorkerChannel.pair(), let errors = try? WorkerProcess.errorPipe() else { return nil }
            defer { close(errors.writeEnd) }
            guard (try? zygote.channel.send(WireMessage.startWorker(decoders: decoders).bytes,
                                            descriptors: [childEnd.descriptor, errors.writeEnd])) != nil else {
                close(errors.readEnd)
                Self.giveUp(&requests)
                return nil
            }
            requests.sent += 1
            return (parentEnd, errors.readEnd, requests.sent)
        }
    }

    /// What the zygote answered a request.
    enum Answer: Equatable {
        case started(pid_t)
        /// It started none: it could not load what the worker needs (which it told the worker's
        /// socket), or it failed to answer.
        case none
        /// Not answered yet (`waiting` false only).
        case pending
    }

    /// The zygote's answer to request `number`, waited for (at most `answerTimeout`) or not.
    /// A copy whose request was abandoned is ended as its answer is read.
    func answer(to number: Int, waiting: Bool = true) -> Answer {
        guard let zygote = requests.withLock({ requests -> WorkerProcess.Launched? in
            if case .running(let zygote) = requests.zygote { return zygote }
            return nil
        }) else { return .none }
        return answers.withLock { answers in
            while answers.read < number {
                if !waiting, !answers.broken, Readiness.wait(for: [zygote.channel.descriptor], seconds: 0) == nil { break }
                answers.read += 1
                guard !answers.broken, let answer = Self.nextAnswer(of: zygote) else {
                    // Stuck, lying or ended: ended and waited for, and later workers are started afresh.
                    if !answers.broken { requests.withLock { Self.giveUp(&$0) } }
                    answers.broken = true
                    continue
                }
                if answers.abandoned.remove(answers.read) != nil, let pid = answer {
                    LiveChildren.endAndWait(pid)
                } else {
                    answers.pids[answers.read] = answer
                }
            }
            if answers.read < number { return answers.broken ? .none : .pending }
            return answers.pids.removeValue(forKey: number).map { $0.map(Answer.started) ?? .none } ?? .none
        }
    }

    /// Gives up request `number`, unanswered: its copy, if the zygote makes one, is ended when
    /// the answer is read (it ends by itself sooner, its socket closed; this reaps it).
    func abandon(_ number: Int) {
        answers.withLock { answers in
            if answers.read < number { answers.abandoned.insert(number) }
        }
    }

    /// The zygote's next answer: a process ID, or none started (.some(nil)); nil when it gave no
    /// answer in time or one it does not give.
    private static func nextAnswer(of zygote: WorkerProcess.Launched) -> pid_t?? {
        // Loading FFmpeg takes a fraction of a second; a zygote that takes longer is stuck, and
        // one that was stopped (SIGSTOP) is given up at once: it held every run 30 s.
        let deadline = Clock.seconds() + answerTimeout
        while Readiness.wait(for: [zygote.channel.descriptor], seconds: min(stoppedCheckInterval, deadline - Clock.seconds())) == nil {
            if Clock.seconds() >= deadline || isStopped(zygote.pid) { return nil }
        }
        guard let answer = try? zygote.channel.receive(seconds: answerTimeout) else { return nil }
        answer.descriptors.forEach { close($0) }
        switch WireMessage(bytes: answer.bytes) {
        case .workerStarted(let pid)? where answer.descriptors.isEmpty: return .some(pid)
        case .unconfined? where answer.descriptors.isEmpty: return .some(nil)
        default: return nil
        }
    }

    /// The longest an answer is waited for.
    static let answerTimeout = 30.0
    /// How often a zygote not answering yet is looked at for having been stopped.
    static let stoppedCheckInterval = 0.1

    /// Whether `pid` is stopped by a signal or a tracer (`T` or `t` in /proc/PID/stat).
    private static func isStopped(_ pid: pid_t) -> Bool {
        let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0, let close = buffer[..<count].lastIndex(of: UInt8(ascii: ")")), close + 2 < count else { return false }
        // After the command's name in parentheses: a space, then the state.
        return buffer[close + 2] == UInt8(ascii: "T") || buffer[close + 2] == UInt8(ascii: "t")
    }

    private static func drain(_ descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(descriptor, &buffer, buffer.count) > 0 {}
    }
}
