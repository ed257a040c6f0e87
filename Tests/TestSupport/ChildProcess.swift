import Foundation

/// A child process the tests ran: how it ended and what it printed.
public struct ChildRun {
    /// The exit status, or the signal's number when `wasSignalled`.
    public let status: Int32
    public let wasSignalled: Bool
    public let standardOutput: Data
    public let standardError: Data
}

/// A child that did not end by its deadline: it was killed, and the test fails naming it.
public struct ChildProcessTimeout: Error, CustomStringConvertible {
    public let command: [String]
    public let seconds: Double

    public var description: String {
        "'\(command.joined(separator: " "))' did not end within \(Int(seconds)) s: killed (a hang)"
    }
}

/// Every child process a test starts runs through here, so that none can hang the suite: past its
/// deadline it is killed (SIGKILL) and the test fails with `ChildProcessTimeout`.
public enum ChildProcess {
    /// Generous, as sanitizer builds run several times slower, but a hang costs minutes, not CI's 90.
    public static let defaultDeadline: Double = ProcessInfo.processInfo.environment["MEDIATOOL_SANITIZED"] == nil ? 120 : 360

    /// Runs `executable` to its end or its deadline. `standardOutput`/`standardError` given are
    /// used as they are (a file handle); otherwise they are collected. `whileRunning` gets the live
    /// process (to signal it, or wait for a state of it) before the wait for its end starts.
    public static func run(_ executable: String, _ arguments: [String], input: Data? = nil, standardInput: FileHandle? = nil,
                           standardOutput: FileHandle? = nil, standardError: FileHandle? = nil,
                           directory: URL? = nil, environment: [String: String] = [:],
                           deadline: Double = defaultDeadline, whileRunning: ((Process) throws -> Void)? = nil) throws -> ChildRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let directory { process.currentDirectoryURL = directory }
        let collected = Collected()
        let readers = DispatchGroup()
        let outputPipe = standardOutput == nil ? Pipe() : nil
        let errorPipe = standardError == nil ? Pipe() : nil
        process.standardOutput = standardOutput ?? outputPipe
        process.standardError = standardError ?? errorPipe
        let inputPipe = input == nil ? nil : Pipe()
        process.standardInput = inputPipe ?? standardInput ?? FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        try? inputPipe?.fileHandleForReading.close()
        // Both pipes are read while the child runs, so that neither fills and blocks it.
        for (pipe, isOutput) in [(outputPipe, true), (errorPipe, false)] {
            guard let pipe else { continue }
            readers.enter()
            Thread {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                // Foundation keeps a finished Process's pipes open: closed here, or the suite's
                // descriptors pass a thousand and Process.run itself crashes.
                try? pipe.fileHandleForReading.close()
                collected.store(data, isOutput: isOutput)
                readers.leave()
            }.start()
        }
        if let input, let inputPipe {
            // A child that stops reading early (--count) closes the pipe: a write error, not the end of the tests.
            signal(SIGPIPE, SIG_IGN)
            let writer = inputPipe.fileHandleForWriting
            Thread {
                try? writer.write(contentsOf: input)
                try? writer.close()
            }.start()
        }
        var failure: (any Error)?
        do {
            try whileRunning?(process)
        } catch {
            failure = error
        }
        if failure != nil { kill(process.processIdentifier, SIGKILL) }
        if ended.wait(timeout: .now() + deadline) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            ended.wait()
            failure = failure ?? ChildProcessTimeout(command: [executable] + arguments, seconds: deadline)
        }
        // A grandchild still holding a pipe must not hang the test either.
        if readers.wait(timeout: .now() + 30) == .timedOut {
            failure = failure ?? ChildProcessTimeout(command: [executable] + arguments + ["(its output)"], seconds: deadline)
        }
        if let failure { throw failure }
        return ChildRun(status: process.terminationStatus, wasSignalled: process.terminationReason == .uncaughtSignal,
                        standardOutput: collected.output, standardError: collected.error)
    }

    /// What the reading threads collected.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var outputData = Data()
        private var errorData = Data()

        func store(_ data: Data, isOutput: Bool) {
            lock.withLock { if isOutput { outputData = data } else { errorData = data } }
        }

        var output: Data { lock.withLock { outputData } }
        var error: Data { lock.withLock { errorData } }
    }

    /// Waits, polling, until `condition` holds: for a state of a child that can be observed (a file
    /// appearing, the child blocked in a read), never a fixed sleep. Throws past `deadline`.
    public static func waitUntil(_ what: String, deadline: Double = defaultDeadline, _ condition: () throws -> Bool) throws {
        let end = Date().addingTimeInterval(deadline)
        while try !condition() {
            guard Date() < end else { throw ChildProcessTimeout(command: ["(waiting for \(what))"], seconds: deadline) }
            usleep(1000)
        }
    }

    /// The same from a task, which gives its thread back between looks: a test that held one of
    /// Swift's cooperative threads (two, on two cores) while the calls it waits for needed one could
    /// wait out its deadline when another test did the same.
    public static func waitUntil(_ what: String, deadline: Double = defaultDeadline, _ condition: () throws -> Bool) async throws {
        let end = Date().addingTimeInterval(deadline)
        while try !condition() {
            guard Date() < end else { throw ChildProcessTimeout(command: ["(waiting for \(what))"], seconds: deadline) }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }

    /// True when a thread of the process is blocked reading a pipe or FIFO (or opening a FIFO), as
    /// the kernel's wait channels in /proc tell.
    public static func isBlockedReading(_ pid: Int32) -> Bool {
        threadsBlockedReading(pid) > 0
    }

    /// How many threads of the process are blocked reading a pipe or FIFO (or opening a FIFO), or
    /// waiting in poll for one to send (mediatool waits so for a stream, to time its silences).
    public static func threadsBlockedReading(_ pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.filter { task in
            guard let channel = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8) else { return false }
            return isWaitingForInput(wchan: channel)
        }.count
    }

    /// Whether a thread whose `/proc/.../wchan` says this waits to read a pipe or FIFO, or in poll.
    public static func isWaitingForInput(wchan channel: String) -> Bool {
        ["pipe_read", "wait_for_partner", "pipe_wait", "poll_schedule_timeout"].contains { channel.contains($0) }
    }
}
