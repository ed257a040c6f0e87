import Glibc
import FileIO
import Synchronization
import WorkerPool
import Reporting
import JSON
import Failures

public struct BatchSettings: Sendable {
    /// Inputs worked on at once.
    public var jobs: Int
    /// An input whose output exists is skipped rather than failed.
    public var skipsExisting = false
    /// One JSON object per input on standard output, as each finishes.
    public var reportsJSON = false
    /// A progress bar on standard error (give it only for a terminal).
    public var showsProgress = false
    /// With `reportsJSON`, a line for each step of a long job (`"status": "progress"`), as well
    /// as one for each input as it ends: for `--json` runs, not for `--serve`'s one line a path.
    public var reportsProgressEvents = true
    /// The summary line and the failed inputs on standard error at the end.
    public var showsSummary = true
    /// The report names each input's output and its time (`probe`'s, whose report is its result, does not).
    public var reportsOutputs = true
    /// Report lines as rows of a table for a person instead of JSON (with `reportsJSON`).
    public var table: ReportTable?
    /// Files of the folders given that were passed over as mediatool's own outputs: said in the summary.
    public var ownOutputsPassedOver = 0

    public init(jobs: Int) {
        self.jobs = jobs
    }

    /// `--serve`'s: a JSON line an input, as it is done, and nothing else on either stream but
    /// failed inputs' error lines.
    public static var serving: BatchSettings {
        var settings = BatchSettings(jobs: 1)
        settings.reportsJSON = true
        settings.reportsProgressEvents = false
        settings.showsSummary = false
        return settings
    }
}

/// A report as a table: its header once, then a row for each input as it finishes.
public struct ReportTable: Sendable {
    public var header: String
    /// The row of an input's report fields (`status` "failed" for one that failed).
    public var row: @Sendable (_ fields: [(name: String, value: JSONValue)]) -> String

    public init(header: String, row: @escaping @Sendable (_ fields: [(name: String, value: JSONValue)]) -> String) {
        self.header = header
        self.row = row
    }
}

/// How a batch went.
public struct BatchSummary: Sendable, Equatable {
    public var ok = 0
    public var failed = 0
    public var skipped = 0
    /// In the order the inputs were given, whatever order they finished in.
    public var failedInputs: [String] = []
    /// Stopped by Ctrl-C or SIGTERM before every input was taken: 130 or 143.
    public var interruptStatus: Int32?
    /// The JSON report could not be written to standard output.
    public var reportFailed = false

    public var interrupted: Bool { interruptStatus != nil }

    /// 0 when nothing failed, 1 when anything did (the report included), 130 or 143 when interrupted.
    public var exitStatus: Int32 { interruptStatus ?? (failed > 0 || reportFailed ? 1 : 0) }
}

/// Runs one job per input on worker threads, reports each as it finishes, and never lets one failure
/// stop the others. Memory stays bounded: each worker holds one input's work at a time, and nothing
/// is queued but the list of paths.
public final class BatchEngine: Sendable {
    /// `outputs`: what the plan names for the input, the first opened before its job (with
    /// `--skip-existing`, those not there yet); empty without a plan. `progress`: where a long
    /// job (a web video) says how far it has got, for the progress line and `--json`'s events.
    public typealias Job = @Sendable (_ input: BatchInput, _ outputs: [PlannedOutput], _ progress: @escaping ProgressReport) throws -> JobReport
    public typealias ProgressReport = @Sendable (JobProgress) -> Void

    private let settings: BatchSettings

    public init(settings: BatchSettings) {
        self.settings = settings
    }

    /// Runs `job` for every input. `plan` names each output (nil for jobs that write to standard
    /// output); leftover temporaries in the output folders are removed first.
    public func run(_ inputs: [BatchInput], plan: OutputPlan?, job: @escaping Job) -> BatchSummary {
        // Every output of every job is checked against every input, not just its own.
        RunInputs.register(paths: inputs.lazy.filter { $0.problem == nil }.map(\.path))
        if let plan { removeLeftovers(for: inputs, plan: plan) }
        // The output folder is held open from the start: every output below it is created by
        // walking down from it, so no folder swapped for a link mid-run can send one elsewhere.
        let confined = plan?.directory.flatMap { try? ConfinedFolders.hold($0) }
        defer { confined.map(ConfinedFolders.release) }
        let state = Mutex(Progress(total: inputs.count, showsBar: settings.showsProgress))
        let next = Atomic<Int>(0)
        let interrupts = Interrupts.shared
        interrupts.begin(grace: 1)
        let settings = self.settings
        let started = Clock.seconds()
        // Past the grace the process ends from the signal's thread, which takes no lock of the
        // batch: counters of their own say how far it got.
        let tally = Tally()
        if settings.showsSummary {
            let total = inputs.count
            interrupts.setLastWords {
                "mediatool: summary: \(tally.ok.load(ordering: .relaxed)) ok, \(tally.failed.load(ordering: .relaxed)) failed, "
                    + "\(tally.skipped.load(ordering: .relaxed)) skipped of \(total) in \(ProgressBar.oneDecimal(Clock.seconds() - started)) s, interrupted\n"
            }
        }
        defer { interrupts.setLastWords(nil) }
        WorkerThreads.run(count: max(1, min(settings.jobs, inputs.count))) { _ in
            while !interrupts.isRequested {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < inputs.count else { return }
                let input = inputs[index]
                let progress: ProgressReport = { report in state.withLock { $0.progressed(report, index: index, input: input, settings: settings) } }
                let (outcome, output) = Self.work(on: input, job: job, plan: plan, isConfined: confined != nil, settings: settings,
                                                  progress: progress)
                if Self.endedByTheInterrupt(outcome, interrupts) { return }
                state.withLock { $0.record(outcome, index: index, input: input, output: output, settings: settings) }
                tally.count(outcome)
            }
        }
        interrupts.end()
        var summary = state.withLock { progress -> BatchSummary in
            progress.finish()
            return progress.summary
        }
        if summary.ok + summary.failed + summary.skipped < inputs.count { summary.interruptStatus = interrupts.exitStatus }
        // Whatever went to standard output (a report, a probe's lines): a closed one (`>&-`) lost
        // it all and the run said ok.
        if let failure = StandardOutput.failure {
            summary.reportFailed = true
            // A reader that stopped reading (`| head`) chose to: no news to it.
            if failure.code != EPIPE { Diagnostics.line("the report on standard output is incomplete: \(failure)") }
        }
        if settings.showsSummary {
            Self.printSummary(summary, total: inputs.count, ownOutputs: settings.ownOutputsPassedOver, seconds: Clock.seconds() - started)
        }
        return summary
    }

    /// `--serve`: the paths standard input sends, one a line, each answered with its report line
    /// as soon as it is done, one after another, until standard input ends. A server keeps one
    /// process and its warm workers for many files instead of paying a start for each; a path that
    /// fails is answered as failed and the next one is read.
    public func serve(selection: InputSelection, plan: OutputPlan?, job: @escaping Job) -> BatchSummary {
        var lines = ServedLines(descriptor: STDIN_FILENO)
        // Below --out-dir the folder is held open from the start, as for a listed batch.
        if let folder = plan?.directory { TemporaryFiles.removeLeftovers(in: folder) }
        let confined = plan?.directory.flatMap { try? ConfinedFolders.hold($0) }
        defer { confined.map(ConfinedFolders.release) }
        // Failed inputs are not kept for a summary: a server fed files for days would grow with them.
        var progress = Progress(total: 0, showsBar: false, keepsFailures: false)
        let interrupts = Interrupts.shared
        interrupts.begin(grace: 1)
        var index = 0
        while !interrupts.isRequested, let line = lines.next() {
            let inputs: [BatchInput]
            switch line {
            case .path(let path):
                if let refusal = Self.servingRefusal(of: path) {
                    inputs = [BatchInput(path: path, relativePath: path, problem: refusal)]
                    break
                }
                do {
                    inputs = try InputCollector.collect(arguments: [path], listFile: nil, selection: selection)
                } catch {
                    inputs = [BatchInput(path: path, relativePath: path, problem: "\(error)")]
                }
            case .tooLong:
                inputs = [BatchInput(path: "", relativePath: "", problem: "a line of more than \(ServedLines.longestLine) bytes, which names no file")]
            case .empty:
                inputs = [BatchInput(path: "", relativePath: "", problem: "an empty line, which names no file")]
            }
            for input in inputs where !interrupts.isRequested {
                let reading = input.problem == nil ? RunInputs.register(paths: [input.path]) : []
                let (outcome, output) = Self.work(on: input, job: job, plan: plan, isConfined: confined != nil, settings: settings)
                RunInputs.withdraw(reading)
                if Self.endedByTheInterrupt(outcome, interrupts) { break }
                progress.record(outcome, index: index, input: input, output: output, settings: settings)
                index += 1
            }
        }
        interrupts.end()
        progress.finish()
        var summary = progress.summary
        if interrupts.isRequested { summary.interruptStatus = interrupts.exitStatus }
        return summary
    }

    /// Whether `outcome` is a failure of an input under way when the run was interrupted: its
    /// worker was ended with the run, which says nothing of the file. Such an input gets no line
    /// and counts among those not done, not as failed.
    private static func endedByTheInterrupt(_ outcome: Outcome, _ interrupts: Interrupts) -> Bool {
        guard case .failed = outcome else { return false }
        return interrupts.isRequested
    }

    enum Outcome {
        case done(JobReport, milliseconds: Int)
        case failed(any Error, milliseconds: Int)
        case skipped
    }

    /// Why `path` is no input to serve: a path is answered with exactly one line, so a folder
    /// (its files, or none) is refused, and so is standard input, which carries the paths.
    private static func servingRefusal(of path: String) -> String? {
        let status = path == "-" ? nil : FileSystem.status(path)
        if path == "-" || (status != nil && status.map(FileIdentity.init) == FileSystem.status(ofDescriptor: STDIN_FILENO).map(FileIdentity.init)) {
            return "standard input carries the paths served: it is no input"
        }
        if let status, status.st_mode & S_IFMT == S_IFDIR {
            return "a folder: --serve answers each path with one line, so it takes files, not folders"
        }
        return nil
    }

    /// One input's job on its planned outputs, and the output its report names.
    private static func work(on input: BatchInput, job: Job, plan: OutputPlan?, isConfined: Bool,
                             settings: BatchSettings, progress: @escaping ProgressReport = { _ in }) -> (Outcome, output: String?) {
        let planned = input.problem == nil ? plan?.outputs(for: input) ?? [] : []
        // Each output on its own: the sizes already made stay, the others are made, and the
        // report names the first this run writes.
        let missing = settings.skipsExisting ? planned.filter { isMissing($0.path) } : planned
        let done = !planned.isEmpty && (missing.isEmpty || (settings.skipsExisting && plan?.firstMarksCompletion == true && !isMissing(planned[0].path)))
        let outcome = perform(job, input: input, planned: missing, plan: plan, isConfined: isConfined,
                              skipsExisting: settings.skipsExisting, allExist: done, progress: progress)
        // An input done by its first output (an ingest's manifest) is named by it.
        let named = plan?.firstMarksCompletion == true ? planned.first : missing.first ?? planned.first
        return (outcome, named?.path)
    }

    /// Whether `--skip-existing` has an output still to make.
    private static func isMissing(_ path: String) -> Bool {
        path == AtomicOutputFile.standardOutputName || FileIdentity(path: path) == nil
    }

    private static func perform(_ job: Job, input: BatchInput, planned: [PlannedOutput], plan: OutputPlan?, isConfined: Bool,
                                skipsExisting: Bool, allExist: Bool, progress: @escaping ProgressReport) -> Outcome {
        if let problem = input.problem { return .failed(ListingProblem(text: problem), milliseconds: 0) }
        if allExist { return .skipped }
        let output = planned.first?.path
        let started = Clock.seconds()
        do {
            // Under --out-dir, the folders of the inputs' relative paths are made as needed (by the
            // output itself, walking down from the folder held open, when it could be opened).
            if !isConfined, let output, plan?.directory != nil, let folder = OutputPlan.folder(of: output) {
                try Folders.create(folder)
            }
            // A template that names folders below the input's (`--name 'small/{stem}.png'`): the
            // input's folder is held while the job runs, and the output reached from it without
            // following links, as under --out-dir.
            var held: OutputFolder?
            if let plan, plan.directory == nil, plan.explicitPath == nil, plan.template.contains("/") {
                held = try ConfinedFolders.hold(OutputPlan.folder(of: input.path) ?? ".")
            }
            defer { held.map(ConfinedFolders.release) }
            let report = try job(input, planned, progress)
            return .done(report, milliseconds: Int(((Clock.seconds() - started) * 1000).rounded()))
        } catch let error as OutputError where skipsExisting && error.isExists {
            // Another run (a restarted pod beside the old one) made it meanwhile, or one of this
            // input's outputs (a storyboard's sheet), as it makes them all: what was asked is there.
            // A job meets only its own outputs, each checked missing when the run was planned.
            // An input done by its first output (an ingest's manifest) is done when that is there;
            // another file in an output's place is no sign of it.
            if plan?.firstMarksCompletion == true, let first = plan?.outputs(for: input).first, isMissing(first.path) {
                return .failed(error, milliseconds: Int(((Clock.seconds() - started) * 1000).rounded()))
            }
            return .skipped
        } catch {
            return .failed(error, milliseconds: Int(((Clock.seconds() - started) * 1000).rounded()))
        }
    }

    private func removeLeftovers(for inputs: [BatchInput], plan: OutputPlan) {
        // By the names' bytes: two names that are one text in Unicode are two folders.
        var folders: [[UInt8]: String] = [:]
        for input in inputs where input.problem == nil && plan.explicitPath != AtomicOutputFile.standardOutputName {
            for output in plan.outputs(for: input) {
                let folder = OutputPlan.folder(of: output.path) ?? "."
                folders[PathBytes.bytes(folder)] = folder
            }
        }
        for key in folders.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) { TemporaryFiles.removeLeftovers(in: folders[key]!) }
    }

    private static func printSummary(_ summary: BatchSummary, total: Int, ownOutputs: Int, seconds: Double) {
        // One input needs no summary: its error line, if any, says it all.
        guard total > 1 || summary.interrupted || ownOutputs > 0 else { return }
        var line = "\(summary.ok) ok, \(summary.failed) failed, \(summary.skipped) skipped of \(total) in \(ProgressBar.oneDecimal(seconds)) s"
        if ownOutputs > 0 { line += ", \(ownOutputs) of mediatool's own outputs passed over" }
        if summary.interrupted { line += ", interrupted" }
        Diagnostics.line("summary: \(line)")
        for input in summary.failedInputs {
            Diagnostics.line("failed: \(input)")
        }
    }
}

/// How many inputs ended each way, readable without a lock (see `Interrupts.setLastWords`).
final class Tally: Sendable {
    let ok = Atomic<Int>(0)
    let failed = Atomic<Int>(0)
    let skipped = Atomic<Int>(0)

    func count(_ outcome: BatchEngine.Outcome) {
        switch outcome {
        case .done: ok.add(1, ordering: .relaxed)
        case .failed: failed.add(1, ordering: .relaxed)
        case .skipped: skipped.add(1, ordering: .relaxed)
        }
    }
}

/// Why an entry of a folder could not be listed.
struct ListingProblem: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
}

/// The running count, the progress bar and the report lines, kept under one lock.
struct Progress: ~Copyable {
    var summary = BatchSummary()
    /// The failed inputs by their place in the batch.
    private var failures: [(index: Int, name: String)] = []
    private let keepsFailures: Bool
    var bar: ProgressBar?

    init(total: Int, showsBar: Bool, keepsFailures: Bool = true) {
        bar = showsBar ? ProgressBar(total: total) : nil
        self.keepsFailures = keepsFailures
    }

    /// The table's header is written before its first row.
    private var wroteHeader = false
    /// How far the inputs under way that say so (web videos) have got, by their place in the batch.
    private var underWay: [Int: JobProgress] = [:]
    /// When each input under way last had a `--json` progress event.
    private var lastEvent: [Int: Double] = [:]

    /// An input under way says how far it has got: a `--json` event (`"status": "progress"`)
    /// and the progress line.
    mutating func progressed(_ progress: JobProgress, index: Int, input: BatchInput, settings: BatchSettings) {
        underWay[index] = progress
        // The first event at once, then one a second, however often the job says (a worker
        // says at most once a second; a job in this process, after every frame).
        let now = Clock.seconds()
        if let last = lastEvent[index], now - last < 1 { return drawBar() }
        lastEvent[index] = now
        if settings.reportsJSON && settings.table == nil && settings.reportsProgressEvents {
            let fields: [JSONMember] = [
                JSONMember("input", .string(input.path)), JSONMember("status", .string("progress")),
                JSONMember("frames", .int(progress.frames)), JSONMember("seconds", .double(Double(progress.milliseconds) / 1000)),
                JSONMember("duration", progress.totalMilliseconds.map { .double(Double($0) / 1000) } ?? .null),
                JSONMember("percent", progress.fraction.map { .int(Int($0 * 100)) } ?? .null),
            ]
            StandardOutput.write(JSONValue.object(fields).text + "\n")
        }
        drawBar()
    }

    /// The bar: inputs done, with the part done of those under way and the video made a second.
    private mutating func drawBar(force: Bool = false) {
        let partial = underWay.values.reduce(0.0) { $0 + ($1.fraction ?? 0) }
        let videoSeconds = underWay.values.reduce(0) { $0 + $1.milliseconds }
        bar?.draw(done: summary.ok + summary.failed + summary.skipped, failed: summary.failed, partial: partial,
                  videoSeconds: underWay.isEmpty ? nil : Double(videoSeconds) / 1000, force: force)
    }

    mutating func record(_ outcome: BatchEngine.Outcome, index: Int, input: BatchInput, output: String?, settings: BatchSettings) {
        underWay[index] = nil
        lastEvent[index] = nil
        // The bar makes way only for a message, and comes back at once after it.
        let hasMessage: Bool
        switch outcome {
        case .done(let report, _): hasMessage = !report.warnings.isEmpty
        case .failed: hasMessage = true
        case .skipped: hasMessage = false
        }
        if hasMessage { bar?.clear() }
        let name = input.path == "-" ? InputFile.standardInputName : input.path
        var fields: [(name: String, value: JSONValue)] = [("input", .string(input.path))]
        if settings.reportsOutputs { fields.append(("output", output.map(JSONValue.string) ?? .null)) }
        let timing = { (milliseconds: Int) -> [(name: String, value: JSONValue)] in settings.reportsOutputs ? [("ms", .int(milliseconds))] : [] }
        switch outcome {
        case .done(let report, let milliseconds):
            summary.ok += 1
            for warning in report.warnings { Diagnostics.warning(name, warning) }
            fields += [("status", .string("ok")), ("error", .null)] + timing(milliseconds)
            fields += report.fields.map { ($0.name, $0.value) }
        case .failed(let error, let milliseconds):
            summary.failed += 1
            if keepsFailures { failures.append((index, name)) }
            Diagnostics.error(name, "\(error)")
            fields += [("status", .string("failed")), ("error", .string("\(error)"))] + timing(milliseconds)
        case .skipped:
            summary.skipped += 1
            fields += [("status", .string("skipped")), ("error", .null)] + timing(0)
        }
        if let table = settings.table {
            if !wroteHeader { StandardOutput.write(table.header + "\n") }
            wroteHeader = true
            StandardOutput.write(table.row(fields) + "\n")
        } else if settings.reportsJSON {
            StandardOutput.write(JSONValue.object(fields.map { JSONMember($0.name, $0.value) }).text + "\n")
        }
        drawBar(force: hasMessage)
    }

    mutating func finish() {
        summary.failedInputs = failures.sorted { $0.index < $1.index }.map(\.name)
        drawBar(force: true)
        if bar?.isShown == true { Diagnostics.raw("\n") }
    }
}

extension ListingProblem: ClassifiedError {
    var failureKind: FailureKind { .unreadable }
}
