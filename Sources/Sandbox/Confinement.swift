import CSandbox
import FileIO
import Glibc

/// What a worker gives up before it reads anything a stranger sent.
public enum Confinement {
    /// Address space beyond the libraries' and the memory limit: thread stacks and the C library's
    /// per-thread malloc arenas are reserved, not used, but count all the same.
    static func headroom(threads: Int) -> Int { (512 << 20) + max(threads, 2) * (128 << 20) }

    /// Ends the worker with its parent, ignores the terminal's signals (the batch decides what
    /// stops), turns core dumps off, limits the address space to what is mapped now plus
    /// `maxMemory` (and headroom), then the seccomp filter and Landlock. `MT_CONFINED_` flags, or
    /// why it could not.
    static func apply(maxMemory: Int, threads: Int, parent: Int32) -> Result<Int32, WorkerFailure> {
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE] { Glibc.signal(signal, SIG_IGN) }
        let (limit, overflow) = Int(mt_mapped_bytes()).addingReportingOverflow(max(0, maxMemory).addingReportingOverflow(headroom(threads: threads)).partialValue)
        if mt_limit_resources(overflow || limit < 0 ? 0 : limit, largestOutput(maxMemory: maxMemory), parent) != 0 { return .failure(.unconfined("cannot set the worker's resource limits")) }
        var message = [CChar](repeating: 0, count: 256)
        let flags = mt_confine(&message, message.count)
        if flags < 0 { return .failure(.unconfined(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))) }
        return .success(flags)
    }

    /// The largest file a worker may write: an output holds at most what its decoding may take, in
    /// pixels of up to 8 bytes, written without compression, and a margin.
    static func largestOutput(maxMemory: Int) -> Int {
        let (doubled, overflow) = max(0, maxMemory).multipliedReportingOverflow(by: 2)
        return overflow || doubled > Int.max - (256 << 20) ? 0 : doubled + (256 << 20)
    }

    /// Sets the CPU time the next job may use, from what the worker has used so far: `seconds` on
    /// each of `threads` threads. Past it the kernel sends SIGXCPU.
    static func limitCPUTime(seconds: Double, threads: Int) {
        mt_limit_cpu_time(seconds * Double(max(threads, 1)))
    }

    /// What `mediatool --version` says of the sandbox on this machine.
    public static var summary: String {
        let landlock = mt_landlock_abi()
        return "sandbox: seccomp filter (libseccomp \(libseccompVersion)), "
            + (landlock > 0 ? "Landlock ABI \(landlock)" : "no Landlock (this kernel does not offer it)")
            + "; workers limited in memory (--max-memory) and time (--timeout)"
    }

    static var libseccompVersion: String {
        var (major, minor, micro): (UInt32, UInt32, UInt32) = (0, 0, 0)
        mt_seccomp_version(&major, &minor, &micro)
        return "\(major).\(minor).\(micro)"
    }
}
