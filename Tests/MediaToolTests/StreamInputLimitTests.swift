import Foundation
import Glibc
import Testing
import TestSupport

/// A stream is copied to a temporary file to be read, so one that never
/// ends would fill the disk and one that stops sending but stays open would hold the run forever.
@Suite struct StreamInputLimitTests {
    static let picture = Fixture.path("pictures/orientation6.jpg")

    @Test(arguments: ["probe", "thumbnail"])
    func aStreamPastTheLimitFailsAndTheOthersGoOn(subcommand: String) throws {
        let scratch = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // A real picture's start, then far more than the limit: the decoy is made here, never committed.
        // A thumbnail of standard input takes it alone (its output needs a name).
        let rest = subcommand == "thumbnail" ? "-o '\(scratch.path)/t.png' -" : "'\(Self.picture)' -"
        let command = "{ cat '\(Self.picture)'; head -c 64M /dev/zero; } | exec '\(ToolRun.executable.path)' \(subcommand) --max-input-size 1M \(rest)"
        let run = try ChildProcess.run("/bin/sh", ["-c", command])
        let error = String(decoding: run.standardError, as: UTF8.self)
        #expect(run.status == 1, "\(error)")
        #expect(error.contains("mediatool: <stdin>: the stream went on past 1M, the most a stream may send (--max-input-size): refused"), "\(error)")
        if subcommand == "probe" {
            let lines = String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n")
            #expect(lines.count == 2)
            #expect(lines.contains { $0.contains("\"input\":\"\(Self.picture)\"") && $0.contains("\"status\":\"ok\"") })
        } else {
            // Nothing for the stream, not even a temporary.
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [])
        }
    }

    @Test func aStreamAtTheLimitIsRead() throws {
        let size = try #require(FileManager.default.attributesOfItem(atPath: Self.picture)[.size] as? Int)
        let run = try ToolRun.run(["probe", "--max-input-size", "\(size)", "-"], input: try Data(contentsOf: URL(fileURLWithPath: Self.picture)))
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.output.contains("\"width\":61,\"height\":41"))
    }

    @Test func aPipeThatStopsSendingFailsAfterTheTimeout() throws {
        let pipe = Pipe()
        defer { try? pipe.fileHandleForWriting.close() }
        // 60 bytes of a picture, and then nothing, the write end held open.
        try pipe.fileHandleForWriting.write(contentsOf: Data(contentsOf: URL(fileURLWithPath: Self.picture)).prefix(60))
        let run = try ChildProcess.run(ToolRun.executable.path, ["probe", "--timeout", "1", "-"],
                                       standardInput: pipe.fileHandleForReading, deadline: 60)
        try? pipe.fileHandleForReading.close()
        let error = String(decoding: run.standardError, as: UTF8.self)
        #expect(run.status == 1)
        #expect(error.contains("mediatool: <stdin>: the stream sent nothing for 1 s: stalled (--timeout)"), "\(error)")
    }

    @Test(arguments: ["on", "off"])
    func aFIFOWhoseWriterNeverWritesFailsAfterTheTimeout(sandbox: String) throws {
        let scratch = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let fifo = scratch.appendingPathComponent("upload.jpg").path
        try #require(mkfifo(fifo, 0o600) == 0)
        // A writer that stays and says nothing: this end, opened for reading and writing, never blocks.
        let writer = open(fifo, O_RDWR | O_CLOEXEC)
        try #require(writer >= 0)
        defer { close(writer) }
        let run = try ToolRun.run(["thumbnail", "--sandbox", sandbox, "--timeout", "1", fifo, "-o", scratch.appendingPathComponent("t.png").path],
                                  deadline: 60)
        #expect(run.status == 1)
        #expect(run.standardError.contains("upload.jpg: the stream sent nothing for 1 s: stalled"), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("t.png").path))
    }

    @Test func aSlowStreamThatKeepsSendingIsNotCut() throws {
        let picture = try Data(contentsOf: URL(fileURLWithPath: Self.picture))
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        // Two seconds in all, a piece every tenth of one, past a timeout of one second of silence.
        let pieces = 20
        let step = (picture.count + pieces - 1) / pieces
        let sender = Thread {
            for start in stride(from: 0, to: picture.count, by: step) {
                try? writer.write(contentsOf: picture[start..<min(picture.count, start + step)])
                usleep(100_000)
            }
            try? writer.close()
        }
        sender.start()
        let run = try ChildProcess.run(ToolRun.executable.path, ["probe", "--timeout", "1", "-"],
                                       standardInput: pipe.fileHandleForReading, deadline: 60)
        try? pipe.fileHandleForReading.close()
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        #expect(String(decoding: run.standardOutput, as: UTF8.self).contains("\"width\":61,\"height\":41"))
    }

    /// Standard input is read once, as the list or as an input.
    /// By any of its names (the hostile review: /dev/stdin and /proc/self/fd/0 passed).
    @Test(arguments: [("-", "-"), ("/dev/stdin", "-"), ("-", "/proc/self/fd/0")])
    func standardInputIsNotBothTheListAndAnInput(list: String, input: String) throws {
        let run = try ToolRun.run(["probe", "--files-from", list, input], input: Data("a.png\n".utf8))
        #expect(run.status == 64)
        #expect(run.errorLines.first?.hasPrefix("mediatool: --files-from \(list) and the input '\(input)' would both read standard input") == true,
                "\(run.standardError)")
    }

    /// The hostile review: the largest limit allowed overflowed a count (`maxSize - total + 1`) and
    /// the run died of it (status 132).
    @Test func theLargestLimitIsALimit() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let command = "exec '\(ToolRun.executable.path)' storyboard --count 3 --max-input-size 9223372036854775807 --vtt '\(folder.path)/s.vtt' <(cat '\(Fixture.path("video/counter.mp4"))')"
        let run = try ChildProcess.run("/bin/bash", ["-c", command])
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("s.vtt").path))
    }

    /// The hostile review: standard input was made non-blocking while it was read, and a signal
    /// that ended the run left it so for whoever reads it next (`cat: Resource temporarily unavailable`).
    @Test func aSignalLeavesStandardInputAsItWas() throws {
        let pipe = Pipe()
        defer { try? pipe.fileHandleForWriting.close() }
        try pipe.fileHandleForWriting.write(contentsOf: Data(contentsOf: URL(fileURLWithPath: Self.picture)).prefix(60))
        let run = try ChildProcess.run(ToolRun.executable.path, ["probe", "--timeout", "60", "-"],
                                       standardInput: pipe.fileHandleForReading, deadline: 60) { process in
            try ChildProcess.waitUntil("the run to wait for standard input", deadline: 30) { ChildProcess.isBlockedReading(process.processIdentifier) }
            kill(process.processIdentifier, SIGTERM)
        }
        #expect(run.status == 143)
        #expect(fcntl(pipe.fileHandleForReading.fileDescriptor, F_GETFL) & O_NONBLOCK == 0)
        try? pipe.fileHandleForReading.close()
    }

    @Test func theLimitMustBeASize() throws {
        let run = try ToolRun.run(["probe", "--max-input-size", "lots", "-"])
        #expect(run.status == 64)
        #expect(run.standardError.contains("--max-input-size"))
    }
}
