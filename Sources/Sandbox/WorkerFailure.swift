import FileIO
import Glibc
import Imaging
import Reporting
import Failures

/// How a job in a worker ended other than with the job's own answer.
public enum WorkerFailure: Error, Equatable, CustomStringConvertible {
    /// Killed by a signal it did not ask for: a decoder's crash, with the first line the worker
    /// wrote to standard error when it wrote one (a runtime's fatal error, a library's last words).
    case crashed(signal: Int32, words: String?)
    /// Ended for want of memory under the worker's address-space limit.
    case overMemory(limit: Int)
    /// Still working when `--timeout` ran out: killed.
    case timedOut(seconds: Double)
    /// Past its CPU-time limit (SIGXCPU), which `--timeout` sets.
    case overCPUTime(seconds: Double)
    /// Ended by itself in the middle of a job.
    case exited(status: Int32)
    /// Did not say it was ready (its wait status, when it ended).
    case didNotStart(ending: Int32)
    /// Started, and said it speaks another worker protocol than this process: a `mediatool` of
    /// another version (the library's worker is installed apart from the library).
    case otherProtocol(worker: Int, own: Int)
    /// Could not confine itself: nothing is decoded unconfined unless `--sandbox off` asks.
    case unconfined(String)
    /// Answered with bytes that are no answer: treated as a compromised worker, and ended.
    case malformedReply
    /// Wrote more to an output than any output of the limits takes.
    case outputTooLarge(limit: Int)
    /// Waited for memory of the run's budget while nothing was given back, the last of the
    /// waiters: ended, so that those that waited before it go on.
    case starvedOfMemory(seconds: Double, limit: Int)
    /// Said it was done with an output it never wrote a byte of: no output is ever empty.
    case emptyOutput(name: String)
    /// Its caller cancelled the job: the worker was ended at once.
    case cancelled

    public var description: String {
        switch self {
        case .crashed(let signal, let words):
            return "the decoder crashed (\(Self.name(of: signal))\(words.map { ": " + $0 } ?? "")); the file was refused"
        case .overMemory(let limit):
            return "over the memory limit of \(Self.size(limit)) (\(Setting.maxMemory)); the file was refused"
        case .timedOut(let seconds):
            return "took longer than \(Setting.timeout) \(Self.number(seconds)) s; the file was refused"
        case .overCPUTime(let seconds):
            return "used more CPU time than \(Setting.timeout) \(Self.number(seconds)) s allows; the file was refused"
        case .exited(let status):
            return "the worker decoding it ended unexpectedly (exit status \(status)); the file was refused"
        case .didNotStart(let ending):
            return "a sandboxed worker did not start (\(Self.ending(ending)))"
        case .otherProtocol(let worker, let own):
            return "the sandboxed worker speaks worker protocol \(worker), this process protocol \(own): "
                + "it is a mediatool of another version; install the one of this version"
        case .unconfined(let reason):
            return "the sandbox could not be set up: \(reason) (\(Setting.sandboxOff) decodes without it)"
        case .malformedReply:
            return "the worker decoding it gave a malformed answer and was ended; the file was refused"
        case .outputTooLarge(let limit):
            return "the worker decoding it wrote more than \(Self.size(limit)) to an output, more than the limits allow, and was ended; the file was refused"
        case .starvedOfMemory(let seconds, let limit):
            return "\(DecodeLimitError.starvedOfMemory(seconds: seconds, limit: limit)); the file was refused"
        case .emptyOutput(let name):
            return "the worker decoding it wrote nothing to \(name) and said it was done; the file was refused"
        case .cancelled:
            return "cancelled"
        }
    }

    static func name(of signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE", SIGABRT: "SIGABRT", SIGTRAP: "SIGTRAP",
            SIGKILL: "SIGKILL", SIGSYS: "SIGSYS", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM",
        ]
        return names[signal] ?? "signal \(signal)"
    }

    static func ending(_ status: Int32) -> String {
        let signal = status & 0x7F
        if signal == 0 { return "exit status \((status >> 8) & 0xFF)" }
        return name(of: signal)
    }

    /// A limit as `--max-memory` takes it: 1 GiB, 512 MiB, or bytes.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 30 && bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        return "\(bytes) bytes"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension WorkerFailure: ClassifiedError {
    public var failureKind: FailureKind {
        switch self {
        case .overMemory, .timedOut, .overCPUTime, .outputTooLarge, .starvedOfMemory: return .overLimit
        case .didNotStart, .otherProtocol, .unconfined: return .deployment
        case .cancelled: return .cancelled
        // What a file did to the decoder that read it.
        case .crashed, .exited, .malformedReply, .emptyOutput: return .damaged
        }
    }
}
