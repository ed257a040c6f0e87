import CSandbox
import Glibc
import Failures

/// Debug builds only: `MEDIATOOL_TEST_WORKER_TRIGGER=ACTION:SUFFIX` makes a worker misbehave on each
/// input whose name ends in SUFFIX, as a hostile file would make a decoder: `crash` (SIGSEGV),
/// `abort`, `tamper` (keeps the planned output's descriptor and writes to it at every later input),
/// `tamper-beside` (the same with the next output opened besides), `sanitizer-oom` (AddressSanitizer's report of an allocation over the limit, then
/// SIGABRT), `hold-memory:BYTES` (holds that much of the budget, then asks for as much again; the
/// other inputs begin half a second later), `hold-memory-waiting:BYTES` (holds that much and asks
/// for as much again at once), `hold-memory-working:BYTES` (holds it and works on until its
/// deadline), `hang`, `allocate` (up to 4 GiB), `open:PATH`, `socket`, `exec`, `fork` (each tried,
/// and the job fails saying whether the kernel refused it), `lineage` (the job fails saying how the
/// worker was started, whose child it is and what it holds open). Release builds leave this out.
enum TestTrigger {
    /// `hello-cut:`: the worker sends the first packet of its hello and nothing more.
    static var cutsItsHelloShort: Bool {
        #if DEBUG
        return getenv("MEDIATOOL_TEST_WORKER_TRIGGER").map { String(cString: $0).hasPrefix("hello-cut:") } ?? false
        #else
        return false
        #endif
    }

    /// `silent:SUFFIX`: the worker answers "done" for such an input without doing its job, as a
    /// worker gone wrong may, leaving its outputs unwritten.
    static func answersWithoutWorking(for input: String) -> Bool {
        isSet("silent:", for: input)
    }

    /// `empty-side:SUFFIX`: for such an input the worker writes its planned output, opens its
    /// next planned output (a later size), closes it empty, and answers "done".
    static func leavesASideOutputEmpty(for input: String) -> Bool {
        isSet("empty-side:", for: input)
    }

    /// Whether the trigger is `kind` followed by a suffix of `input`'s name (debug builds only).
    private static func isSet(_ kind: String, for input: String) -> Bool {
        #if DEBUG
        guard let value = getenv("MEDIATOOL_TEST_WORKER_TRIGGER").map({ String(cString: $0) }), value.hasPrefix(kind) else { return false }
        return input.hasSuffix(value.dropFirst(kind.count))
        #else
        return false
        #endif
    }

    static func fire(for input: String, output: Int32) throws {
        #if DEBUG
        // What a worker kept of an earlier input's output is written to at every later input.
        if kept >= 0 { _ = "TAMPERED".withCString { write(kept, $0, 8) } }
        guard let value = getenv("MEDIATOOL_TEST_WORKER_TRIGGER").map({ String(cString: $0) }),
              let colon = value.firstIndex(of: ":") else { return }
        let action = String(value[..<colon])
        var suffix = String(value[value.index(after: colon)...])
        var path = "/"
        if ["open", "chmod", "hold-memory", "hold-memory-working", "hold-memory-waiting"].contains(action), let second = suffix.firstIndex(of: ":") {
            path = String(suffix[..<second])
            suffix = String(suffix[suffix.index(after: second)...])
        }
        // The other inputs begin half a second later: the memory is held before they ask for theirs.
        if action.hasPrefix("hold-memory") && !input.hasSuffix(suffix) { usleep(500_000) }
        guard input.hasSuffix(suffix) else { return }
        switch action {
        case "flood":
            // Writes without end to the output, as a worker gone wrong may.
            let zeros = [UInt8](repeating: 0, count: 1 << 20)
            while write(output, zeros, zeros.count) > 0 {}
        case "tamper":
            kept = dup(output)
        case "tamper-beside":
            // The next output it is given besides (an ingest's web video, written in place).
            keepsNextOutput = true
        case "hold-memory":
            // As a hostile input may make a decoder: holds BYTES of the run's budget, then a second
            // later asks for as much again, more than the budget leaves, and waits for it.
            guard let bytes = Int(path), let lender = SandboxWorker.current?.memoryLender else { return }
            _ = lender.borrow(bytes)
            sleep(1)
            _ = lender.borrow(bytes)
            while true { pause() }
        case "hold-memory-waiting":
            // As a file whose index takes nearly the whole budget, then waits for its frame: holds
            // BYTES, and at once asks for as much again, so that it waits before the others do.
            guard let bytes = Int(path), let lender = SandboxWorker.current?.memoryLender else { return }
            _ = lender.borrow(bytes)
            _ = lender.borrow(bytes)
            while true { pause() }
        case "hold-memory-working":
            // As a slow hostile decode: holds BYTES of the run's budget and works on, asking for
            // nothing more, until its deadline ends it.
            guard let bytes = Int(path), let lender = SandboxWorker.current?.memoryLender else { return }
            _ = lender.borrow(bytes)
            while true { pause() }
        case "crash":
            // As a decoder's bad pointer ends: by SIGSEGV, whatever handler a sanitizer put in place.
            signal(SIGSEGV, SIG_DFL)
            raise(SIGSEGV)
        case "abort":
            abort()
        case "sanitizer-oom":
            // As AddressSanitizer reports an allocation over the limit: the reason on the first
            // line, then a stack frame a line, each naming the binary by its path (4195 bytes from
            // a clone 80 characters deep), then an abort.
            var report = "==\(getpid())==ERROR: AddressSanitizer: out of memory: allocator is trying to allocate 0x4000000 bytes\n"
            for frame in 0..<64 {
                report += "    #\(frame) 0x55555555\(frame) in frame\(frame) /\(String(repeating: "long-clone-path/", count: 8))mediatool+0x\(frame)\n"
            }
            _ = report.withCString { write(2, $0, strlen($0)) }
            signal(SIGABRT, SIG_DFL)
            abort()
        case "hang":
            while true { pause() }
        case "allocate":
            // Touched, so that the pages are really used; 4 GiB at most, and said, so that with the
            // worker's address-space limit removed (scripts/mutations) the test fails, not the machine.
            var blocks: [UnsafeMutableRawPointer] = []
            while blocks.count < 64 {
                let block = UnsafeMutableRawPointer.allocate(byteCount: 64 << 20, alignment: 4096)
                memset(block, 1, 64 << 20)
                blocks.append(block)
            }
            throw ProbeOutcome(description: "allocated 4 GiB: no limit refused it")
        case "lineage":
            // Whose child the worker is (the batch waits for its workers itself), and what it holds
            // open beyond standard error: its socket and the job's input and output, nothing else.
            let batch = getenv(WorkerProcess.parentKey).flatMap { Int32(String(cString: $0)) } ?? -1
            let held = (3..<4096).filter { fcntl($0, F_GETFD) >= 0 }.count
            let origin = SandboxWorker.isZygote ? "a copy of the zygote" : "started afresh"
            throw ProbeOutcome(description: "\(origin), \(getppid() == batch ? "the batch's child" : "NOT the batch's child"), "
                               + "\(held) descriptors beyond standard error")
        case "open", "socket", "exec", "fork", "chmod", "signal", "terminal":
            let bits = ["open": MT_PROBE_OPEN, "socket": MT_PROBE_SOCKET, "exec": MT_PROBE_EXEC, "fork": MT_PROBE_FORK,
                        "chmod": MT_PROBE_CHMOD, "signal": MT_PROBE_SIGNAL, "terminal": MT_PROBE_TERMINAL]
            let bit = Int32(bits[action]!)
            let refused = mt_probe_forbidden(path) & bit != 0
            throw ProbeOutcome(description: "\(action) \(refused ? "refused" : "ALLOWED") in the worker")
        default:
            return
        }
        #endif
    }
}

extension TestTrigger {
    /// What `MEDIATOOL_TEST_ZYGOTE_TRIGGER` makes the zygote do (debug builds only), as a zygote
    /// that died would: `exit` at its first request, `exit-after-fork` once it made the first
    /// copy, before it says the copy's process ID.
    enum ZygoteMoment {
        case request, forked
    }

    static func fireInZygote(_ moment: ZygoteMoment) {
        #if DEBUG
        guard let value = getenv("MEDIATOOL_TEST_ZYGOTE_TRIGGER").map({ String(cString: $0) }) else { return }
        if (value == "exit" && moment == .request) || (value == "exit-after-fork" && moment == .forked) { _exit(0) }
        // As a stranger's SIGSTOP would: stopped, not ended.
        if value == "stop" && moment == .request { raise(SIGSTOP) }
        #endif
    }
}

#if DEBUG
/// The output descriptor a `tamper` trigger kept.
nonisolated(unsafe) private var kept: Int32 = -1
/// A `tamper-beside` trigger fired: the next output opened is kept.
nonisolated(unsafe) private var keepsNextOutput = false
#endif

extension TestTrigger {
    /// The worker was given `descriptor` for an output besides its planned one (release builds:
    /// nothing, as every trigger).
    static func opened(_ descriptor: Int32) {
        #if DEBUG
        if keepsNextOutput {
            keepsNextOutput = false
            kept = dup(descriptor)
        }
        #endif
    }
}

/// What a probe found: the job fails with it.
struct ProbeOutcome: Error, CustomStringConvertible {
    let description: String
}

extension ProbeOutcome: ClassifiedError {
    var failureKind: FailureKind { .internalFailure }
}
