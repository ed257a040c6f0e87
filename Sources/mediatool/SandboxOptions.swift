import ArgumentParser
import Batch
import FileIO
import Sandbox
import ImageCodecs
import Imaging
import ImageCropping
import Storyboards
import VideoThumbnails
import Jobs
import JSON

extension SandboxMode: ExpressibleByArgument {}

/// Where inputs are decoded: in confined worker processes, or (`--sandbox off`) in this one.
struct SandboxOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Decode each input in a confined worker process (on: seccomp, Landlock, memory and time limits; a crash costs that input only), or in this process (off: for trusted files and debugging).", valueName: "on|off"))
    var sandbox: SandboxMode = .on

    @Option(help: ArgumentHelp("Seconds one input may take in its worker (wall time; its CPU time is held to this on each of its threads) before the worker is killed and the input fails; also the longest a stream may send nothing. A web video (transcode) counts it from its last frame made: a long video goes on, a stuck one is ended. With --sandbox off only the streams' limit holds.", valueName: "seconds"))
    var timeout: Seconds = Seconds(120)

    func validate() throws {
        guard timeout.value >= 0.001, timeout.value <= 31_536_000 else {
            throw ValidationError("--timeout takes seconds from 0.001 up to a year (31536000), not '\(timeout.text)'.")
        }
    }

    /// Starts the run's sandbox: its first workers (one for each of `starting`, what the inputs
    /// will need as far as the subcommand can tell) begin at once, while the batch is planned.
    /// `mediaWorkers`: at most this many workers load FFmpeg (see `SandboxSettings.mediaWorkers`).
    /// A stream may send nothing for as long as a worker may work on one input, sandboxed or not.
    /// Workers are copies of the zygote `prestartZygote` started, which the run takes.
    func begin(limits: LimitOptions, mediaWorkers: Int? = nil, starting: [JobDecoders] = [.media]) -> SandboxRun {
        let maxMemory = limits.maxMemory.bytes
        let settings = Self.settings(timeout: timeout.value, maxMemory: maxMemory, mediaWorkers: mediaWorkers)
        let runner: JobRunner = sandbox == .on ? .workers(SandboxedJobs(settings: settings, starting: starting), budget: settings.budget)
            : .here(memoryStall: SandboxSettings.memoryStall(timeout: timeout.value))
        return SandboxRun(runner: runner, streams: StreamLimits(maxSize: limits.maxInputSize.bytes, stallSeconds: timeout.value))
    }

    /// The command line's sandbox, as `begin` and `prestartZygote` make it: its zygote is taken
    /// by the run only where the two agree on the executable and the environment.
    static func settings(timeout: Double, maxMemory: Int, mediaWorkers: Int? = nil) -> SandboxSettings {
        SandboxSettings(timeout: timeout, maxMemory: maxMemory, mediaWorkers: mediaWorkers, budget: MemoryBudget(total: maxMemory))
    }

    /// Starts the zygote as soon as the arguments are parsed, where they make a subcommand that
    /// decodes in workers (`DecodesInWorkers`) and its sandbox is on: the zygote's start and
    /// FFmpeg's loading then overlap the planning. The parsed command decides, not a second reading
    /// of the arguments: help, a usage error or `--sandbox off` starts none.
    static func prestartZygote(for command: any ParsableCommand) {
        guard let decoding = command as? any DecodesInWorkers, decoding.sandbox.sandbox == .on else { return }
        SandboxedJobs.prestartZygote(settings: settings(timeout: 120, maxMemory: 1))
    }
}

/// A subcommand that decodes its inputs, in the workers its sandbox options start.
protocol DecodesInWorkers {
    var sandbox: SandboxOptions { get }
}

/// A run's sandbox: where its jobs are done (in workers, or with `--sandbox off` here), chosen
/// once, and what an input that is a stream may cost.
struct SandboxRun {
    let runner: JobRunner
    let streams: StreamLimits

    /// The run's workers, where its jobs run in them.
    var jobs: SandboxedJobs? { runner.workers }

    /// Runs the job `spec` says on every input, in workers or here, each on its share of the
    /// cores; exits 1 (after the summary) when any input failed.
    /// `serving`: with `--serve`, what a folder sent gives; the inputs then come from standard input.
    /// `finishing`: what the run does once every input is done, failed or not, before its exit
    /// status (ingest's Live Photo links); not in `--serve`, which never finishes.
    func runBatch(_ inputs: [BatchInput], plan: OutputPlan, jobs: JobOptions, ownOutputs: Int = 0, spec: JobSpec,
                  serving: InputSelection? = nil, finishing: (() -> Void)? = nil) throws {
        let threads = jobs.threadsPerWorker(inputs: serving == nil ? inputs.count : 1)
        var made = spec.job(threads: threads)
        made.policy.keepsOtherRunsOutputs = jobs.skipExisting
        made.policy.syncs = !jobs.noFsync
        let job = made
        let run = try runner(threads: threads, spec: spec)
        let perform: BatchEngine.Job = { input, outputs, progress in try run(job, input.path, outputs, progress) }
        let summary = if let serving {
            BatchEngine(settings: .serving).serve(selection: serving, plan: plan, job: perform)
        } else {
            BatchEngine(settings: jobs.settings(ownOutputs: ownOutputs)).run(inputs, plan: plan, job: perform)
        }
        if serving == nil { finishing?() }
        if summary.exitStatus != 0 { throw ExitCode(summary.exitStatus) }
    }

    /// How the batch runs a job for one input, each on `threads` threads, where the run's runner
    /// does it: `spec` encoded once for all the inputs.
    func runner(threads: Int, spec: JobSpec) throws
        -> @Sendable (FileJob, String, [PlannedOutput], BatchEngine.ProgressReport?) throws -> JobReport {
        let (runner, streams, prepared) = (runner, streams, try JobRunner.Spec(spec))
        return { job, input, outputs, progress in
            try runner.run(job.limitingStreams(to: streams), spec: prepared, input: input, outputs: outputs, threads: threads,
                           progress: progress)
        }
    }
}

/// A number of seconds as typed (`120`, `0.5`), shown as typed in help and messages.
struct Seconds: ExpressibleByArgument {
    let value: Double
    let text: String

    init(_ value: Int) {
        self.value = Double(value)
        text = String(value)
    }

    init?(argument: String) {
        guard let value = Double(argument), !value.isNaN else { return nil }
        self.value = value
        text = argument
    }

    var defaultValueDescription: String { text }
}
