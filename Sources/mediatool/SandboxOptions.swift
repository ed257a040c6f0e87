import ArgumentParser
import Batch
import Sandbox

extension SandboxMode: ExpressibleByArgument {}

/// Where inputs are decoded: in confined worker processes, or (`--sandbox off`) in this one.
struct SandboxOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Decode each input in a confined worker process (on: seccomp, Landlock, memory and time limits; a crash costs that input only), or in this process (off: for trusted files and debugging).", valueName: "on|off"))
    var sandbox: SandboxMode = .on

    @Option(help: ArgumentHelp("Seconds one input may take in its worker before the worker is killed and the input fails (with the sandbox on).", valueName: "seconds"))
    var timeout: Double = 120

    func validate() throws {
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be more than 0 seconds.") }
    }

    /// How the batch runs a job for one input: in a worker, or here.
    func runner(maxMemory: Int, threads: Int) -> @Sendable (FileJob, String, String) throws -> JobReport {
        guard sandbox == .on else { return { job, input, output in try job.run(input: input, output: output) } }
        let jobs = SandboxedJobs(settings: SandboxSettings(timeout: timeout, maxMemory: maxMemory, threads: threads))
        return { job, input, output in try jobs.run(job, input: input, output: output) }
    }
}
