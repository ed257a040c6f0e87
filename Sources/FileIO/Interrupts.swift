import Glibc
import Synchronization
import WorkerPool

/// Ctrl-C (SIGINT), SIGTERM, SIGHUP (a terminal or ssh session closing), SIGQUIT (Ctrl-\\) and
/// SIGPIPE (standard output's reader gone, `| head`), taken in one place so that none is ever lost,
/// and none leaves a temporary file behind.
///
/// `install()`, the first thing `main` does, blocks these signals before any other thread exists, so
/// every thread inherits the block and the kernel keeps a signal pending until the one thread made
/// for them takes it with `sigwait`: however early a signal comes, and whatever the other threads
/// are blocked in (a `read` on a silent FIFO, `pthread_join`), it is seen. Nothing relies on a
/// `read` returning EINTR.
///
/// Outside a graceful section a signal ends the process at once. Inside one (`begin(grace:)`, a
/// batch), the first signal asks the work to stop taking new inputs; once `grace` seconds have
/// passed, or at a second signal, the temporaries of unfinished outputs are removed and the process
/// exits with 128 + the signal's number (130, 143, 129, 131), even while a long input is still being read.
///
/// A child process inherits the blocked mask: whoever starts one must unblock them in it
/// (`posix_spawnattr_setsigmask`).
public final class Interrupts: Sendable {
    public static let shared = Interrupts()

    /// The signals taken here.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE]

    private let received = Atomic<Int32>(0)
    /// How long work may go on after the first signal, in milliseconds; -1 outside a graceful section.
    private let graceMilliseconds = Atomic<Int64>(-1)
    private let isInstalled = Atomic<Bool>(false)
    /// Work that must not be cut in two (a group of outputs being moved into place) under way.
    private let uninterruptible = Atomic<Int>(0)
    /// Set once the process has decided to end: no such work starts after it.
    private let isEnding = Atomic<Bool>(false)
    /// A line to print when a signal ends the process past its grace (a batch's summary so far).
    private let lastWords = Mutex<(@Sendable () -> String)?>(nil)

    private init() {}

    /// Blocks the signals in the calling thread (and so in every thread it starts after) and
    /// starts the thread that takes them. Call it before any other thread starts; later calls do nothing.
    public static func install() {
        guard shared.isInstalled.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        // A signal whoever started the process ignores stays ignored (`nohup` ignores SIGHUP, a
        // script's background job SIGINT and SIGQUIT): blocked, it would be kept and taken all the
        // same, and a run meant to outlive its terminal ended with it. SIGPIPE apart: one ignored
        // by whoever started the process (Python's subprocess, a CI runner) would be discarded,
        // not kept for the thread that waits for it, and a write to a gone reader would go on.
        let taken = signals.filter { $0 == SIGPIPE || !isIgnored($0) }
        signal(SIGPIPE, SIG_DFL)
        var set = signalSet(taken)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let started = WorkerThreads.detach { Interrupts.shared.takeSignals(taken) }
        precondition(started, "cannot start the thread that takes signals")
    }

    /// Work from here on may finish what is under way for `grace` seconds after a first signal.
    public func begin(grace: Double) {
        Self.install()
        graceMilliseconds.store(Int64((max(0, grace) * 1000).rounded()), ordering: .relaxed)
    }

    /// The graceful section is over: a signal from now on ends the process at once.
    public func end() {
        graceMilliseconds.store(-1, ordering: .relaxed)
    }

    /// Runs `body` (a group of outputs moved into place together) to its end before a signal ends
    /// the process: ended halfway, a storyboard left some sheets without their WebVTT file, or an
    /// old one pointing at sheets already replaced. Bounded work: renames, no reading.
    /// Once the process has decided to end, such work never starts: it waits here for the end.
    public func withoutInterruption<Result>(_ body: () throws -> Result) rethrows -> Result {
        // Counted before the check, and the end decided before its count is read (both
        // sequentially consistent): either this work sees the end coming, or the end waits for it.
        uninterruptible.add(1, ordering: .sequentiallyConsistent)
        if isEnding.load(ordering: .sequentiallyConsistent) {
            uninterruptible.subtract(1, ordering: .sequentiallyConsistent)
            while true { pause() }
        }
        defer { uninterruptible.subtract(1, ordering: .sequentiallyConsistent) }
        return try body()
    }

    /// What to say on standard error should a signal end the process before the work can: a
    /// batch's summary so far, made from counters that take no lock. nil: nothing.
    public func setLastWords(_ words: (@Sendable () -> String)?) {
        lastWords.withLock { $0 = words }
    }

    /// Standard output's reader is gone: a write there failed with EPIPE (the SIGPIPE the kernel
    /// sent stays pending, blocked, in the thread that wrote; one sent by another process is taken
    /// as any other signal).
    /// The process ends here and now, as SIGPIPE would end it (status 141, nothing more printed),
    /// once what must not be cut in two is done, its temporaries removed.
    public func readerIsGone() {
        guard isInstalled.load(ordering: .relaxed) else { return }
        received.store(SIGPIPE, ordering: .relaxed)
        waitForUninterruptible()
        Self.end(status: Self.exitStatus(for: SIGPIPE))
    }

    /// Stops new groups of outputs from being moved into place, and waits while one is (for at most
    /// 30 s: renames, not reads).
    private func waitForUninterruptible() {
        isEnding.store(true, ordering: .sequentiallyConsistent)
        var waited = 0
        while uninterruptible.load(ordering: .sequentiallyConsistent) > 0 && waited < 30_000 {
            usleep(1000)
            waited += 1
        }
    }

    /// True once a signal asked to stop.
    public var isRequested: Bool { received.load(ordering: .relaxed) != 0 }

    /// The exit status the signal received calls for, or nil when none came.
    public var exitStatus: Int32? {
        let signalNumber = received.load(ordering: .relaxed)
        return signalNumber == 0 ? nil : Self.exitStatus(for: signalNumber)
    }

    public static func exitStatus(for signalNumber: Int32) -> Int32 { 128 + signalNumber }

    private static func signalSet(_ taken: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in taken { sigaddset(&set, signalNumber) }
        return set
    }

    /// Whether the process was started with `signalNumber` ignored.
    static func isIgnored(_ signalNumber: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signalNumber, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// The thread that takes the signals `taken`: it never returns.
    private func takeSignals(_ taken: [Int32]) -> Never {
        var set = Self.signalSet(taken)
        var first: Int32 = 0
        while sigwait(&set, &first) != 0 {}
        received.store(first, ordering: .relaxed)
        let grace = graceMilliseconds.load(ordering: .relaxed)
        if grace > 0 {
            // Until the grace is over, or a second signal ends it sooner.
            var timeout = timespec(tv_sec: Int(grace / 1000), tv_nsec: Int(grace % 1000) * 1_000_000)
            _ = sigtimedwait(&set, nil, &timeout)
        }
        // What must not be cut in two finishes first.
        waitForUninterruptible()
        if let words = lastWords.withLock({ $0 }) {
            let line = Array(words().utf8)
            _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
        Self.end(status: Self.exitStatus(for: first))
    }

    private static func end(status: Int32) -> Never {
        AtomicOutputFile.removeUnfinishedTemporaries()
        endingHook.withLock { $0 }?()
        _exit(status)
    }

    /// What runs as the process ends on a signal or a reader gone, before `_exit`: the sandbox's
    /// workers ended and waited for, which no deinit will do then.
    private static let endingHook = Mutex<(@Sendable () -> Void)?>(nil)

    public static func onEnd(_ hook: @escaping @Sendable () -> Void) {
        endingHook.withLock { $0 = hook }
    }
}
