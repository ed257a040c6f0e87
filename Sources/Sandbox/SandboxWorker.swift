import Batch
import CSandbox
import FileIO
import Dispatch
import Glibc
import WorkerPool
import JSON

/// This process as a worker: started by `SandboxedJobs` with a socket, it confines itself and then
/// does the jobs it is sent, one at a time, until the socket closes.
public struct SandboxWorker: Sendable {
    /// Set when this process was started as a worker; nil otherwise.
    public static let current: SandboxWorker? = {
        guard let value = getenv(WorkerProcess.environmentKey), let descriptor = Int32(String(cString: value)) else { return nil }
        let threads = getenv(WorkerProcess.threadsKey).flatMap { Int(String(cString: $0)) } ?? 0
        return SandboxWorker(channel: WorkerChannel(descriptor: descriptor), threads: threads)
    }()

    let channel: WorkerChannel
    /// Threads of each job, as the parent counted them for the batch (0: every core).
    public let threads: Int

    /// What the C library and the runtime read from files on first use: the cores (cgroup and
    /// affinity files) and Dispatch's thread pool, started while files can still be read.
    static func warmUp() {
        _ = WorkerThreads.cores
        let started = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { started.signal() }
        started.wait()
    }

    /// Loads what the jobs need (`prepare`: libraries that load on first use), confines the process,
    /// then serves `job` until the parent closes the socket; never returns.
    public func serve(_ job: FileJob, maxMemory: Int, timeout: Double, prepare: () throws -> Void) -> Never {
        do {
            try prepare()
            Self.warmUp()
        } catch {
            try? channel.send(WireMessage.unconfined(reason: "\(error)").bytes)
            exit(70)
        }
        switch Confinement.apply(maxMemory: maxMemory, threads: threads) {
        case .failure(let failure):
            let reason = if case .unconfined(let text) = failure { text } else { "\(failure)" }
            try? channel.send(WireMessage.unconfined(reason: reason).bytes)
            exit(70)
        case .success(let flags):
            guard (try? channel.send(WireMessage.ready(confinement: flags).bytes)) != nil else { exit(0) }
        }
        while true {
            guard let message = try? channel.receive() else { exit(0) }
            guard case .job(let input, let output)? = WireMessage(bytes: message.bytes), message.descriptors.count == 2 else {
                // Only the parent writes here: anything else means the socket is not what it was.
                exit(71)
            }
            Confinement.limitCPUTime(seconds: timeout, threads: threads)
            let reply: WireMessage
            do {
                let file = try InputFile(adopting: message.descriptors[0], displayName: input)
                defer { withExtendedLifetime(file) {} }
                try TestTrigger.fire(for: input)
                let report = try job.work(file, message.descriptors[1], output)
                reply = .done(fields: report.fields.map { JSONMember($0.name, $0.value) }, warnings: report.warnings)
            } catch {
                reply = .failed(message: "\(error)")
            }
            // The output is whole and closed here before the parent is told: it moves it into place.
            close(message.descriptors[1])
            guard (try? channel.send(reply.bytes)) != nil else { exit(0) }
        }
    }
}
