import Foundation
import Glibc
import Testing
import TestSupport

/// `--serve`: a server keeps one mediatool and sends it paths, one a line; each is answered with
/// its JSON line before the next is sent, so the answer cannot wait for standard input's end.
@Suite struct ServeModeTests {
    /// A `mediatool ... --serve` running, its standard input a pipe the test writes paths to.
    final class Served {
        let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private let errors = Pipe()
        private var held: [UInt8] = []

        init(_ arguments: [String]) throws {
            process.executableURL = ToolRun.executable
            process.arguments = arguments
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            try process.run()
        }

        deinit {
            if process.isRunning { process.terminate() }
        }

        func send(_ line: String) throws {
            try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
        }

        /// The next answer, read with standard input still open; a deadline ends the wait.
        func answer(deadline: Double = ChildProcess.defaultDeadline) throws -> [String: Any] {
            let end = Date().addingTimeInterval(deadline)
            let descriptor = output.fileHandleForReading.fileDescriptor
            while !held.contains(UInt8(ascii: "\n")) {
                let left = end.timeIntervalSinceNow
                guard left > 0 else { throw ServeFailure(text: "no answer within \(Int(deadline)) s") }
                var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&waiting, 1, Int32(left * 1000) + 1) > 0 else { continue }
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                let count = read(descriptor, &chunk, chunk.count)
                guard count > 0 else { throw ServeFailure(text: "standard output ended before an answer") }
                held += chunk[..<count]
            }
            let lineEnd = held.firstIndex(of: UInt8(ascii: "\n"))!
            let line = Data(held[..<lineEnd])
            held.removeFirst(lineEnd + 1)
            return try JSONSerialization.jsonObject(with: line) as! [String: Any]
        }

        /// Standard input closed: the exit status, within the deadline.
        func finish() throws -> Int32 {
            try input.fileHandleForWriting.close()
            try ChildProcess.waitUntil("mediatool --serve ends") { !process.isRunning }
            return process.terminationStatus
        }
    }

    struct ServeFailure: Error, CustomStringConvertible {
        let text: String
        var description: String { text }
    }

    /// A path that is the server's own standard output (`/proc/self/fd/1`, or a link to it in an
    /// upload folder), or its standard input, is refused: read, it swallowed the answers not yet
    /// read (7 paths sent, 2 answered). Every path sent is answered, in order.
    @Test func theServersOwnStandardStreamsAreNoInputs() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("upload.jpg").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/proc/self/fd/1")
        let served = try Served(["probe", "--serve", "--location", "remove"])
        let photo = Fixture.path("pictures/orientation6.jpg")
        let sent = [photo, "/proc/self/fd/1", photo, link, "/proc/self/fd/0", "/dev/stdout", photo]
        for path in sent { try served.send(path) }
        for path in sent {
            let answer = try served.answer()
            #expect(answer["input"] as? String == path, "\(answer)")
            if path == photo {
                #expect(answer["status"] as? String == "ok", "\(answer)")
            } else {
                #expect(answer["status"] as? String == "failed", "\(answer)")
                #expect((answer["error"] as? String)?.contains(path.hasSuffix("fd/0") ? "standard input carries the paths served" : "it is this run's own standard output") == true, "\(answer)")
            }
        }
        #expect(try served.finish() == 1)
    }

    /// A path to another of the server's own pipes (`/proc/self/fd/5`: a worker's error pipe,
    /// whose crash text it would take, waiting until `--timeout`) is refused at once, whatever
    /// its number; the photo after them is answered.
    @Test func theServersOwnPipesAreNoInputs() throws {
        let served = try Served(["probe", "--serve", "--location", "remove", "--timeout", "600"])
        let photo = Fixture.path("pictures/orientation6.jpg")
        // A first photo starts the workers, whose pipes the paths below then name.
        try served.send(photo)
        #expect(try served.answer()["status"] as? String == "ok")
        let sent = (3...16).map { "/proc/self/fd/\($0)" } + [photo]
        for path in sent { try served.send(path) }
        var refused = 0
        for path in sent {
            // A path read as a pipe would wait for the 600 s timeout: far past the deadline.
            let answer = try served.answer(deadline: 60)
            #expect(answer["input"] as? String == path, "\(answer)")
            #expect(answer["status"] as? String == (path == photo ? "ok" : "failed"), "\(answer)")
            if (answer["error"] as? String)?.contains("this run was not given") == true { refused += 1 }
        }
        #expect(refused >= 1)
        _ = try served.finish()
    }

    /// Another process's pipe by its /proc path (`/proc/PID/fd/0` of a process fed paths, as
    /// another server's standard input) is refused: read, its input would be swallowed.
    @Test func anotherProcesssPipeIsNoInput() throws {
        let feeder = Process()
        feeder.executableURL = URL(fileURLWithPath: "/bin/sleep")
        feeder.arguments = ["60"]
        let pipe = Pipe()
        feeder.standardInput = pipe
        try feeder.run()
        defer { feeder.terminate() }
        let run = try ToolRun.run(["probe", "--timeout", "600", "/proc/\(feeder.processIdentifier)/fd/0"], deadline: 60)
        #expect(run.status == 1)
        #expect(run.standardError.contains("it is a pipe this run was not given"), "\(run.standardError)")
    }

    /// A pipe given when the tool started is the user's input: a shell's `<(cat clip)` is read.
    @Test func aPipeTheShellGaveIsRead() throws {
        let photo = Fixture.path("pictures/orientation6.jpg")
        let run = try ChildProcess.run("/bin/bash", ["-c", "exec \"$0\" probe --location remove <(cat \"$1\")", ToolRun.executable.path, photo])
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        #expect(String(decoding: run.standardOutput, as: UTF8.self).contains("\"width\":"))
    }

    @Test func probeAnswersEachPathAsItComes() throws {
        let served = try Served(["probe", "--serve", "--location", "remove"])
        // The phone's portrait HLG clip: coded 96x64, shown 64x96 (made by scripts/make-fixtures).
        try served.send(Fixture.path("probe/phone-hlg-portrait.mov"))
        let phone = try served.answer()
        #expect(phone["status"] as? String == "ok")
        #expect(phone["width"] as? Int == 64 && phone["height"] as? Int == 96 && phone["rotation"] as? Int == 90, "\(phone)")
        #expect(phone["hdr"] as? String == "hlg" && phone["gps"] == nil, "\(phone)")
        // A failure is answered, and the next path read.
        try served.send(Fixture.path("video/not-media.mp4"))
        let broken = try served.answer()
        #expect(broken["status"] as? String == "failed" && (broken["error"] as? String)?.contains("not a media file") == true, "\(broken)")
        try served.send("/nonexistent/clip.mov")
        #expect(try served.answer()["status"] as? String == "failed")
        try served.send(Fixture.path("video/counter.mp4"))
        let counter = try served.answer()
        #expect(counter["input"] as? String == Fixture.path("video/counter.mp4") && counter["status"] as? String == "ok", "\(counter)")
        // Two failed: the status says some did.
        #expect(try served.finish() == 1)
    }

    @Test func thumbnailWritesEachOutputBeforeItAnswers() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try Served(["thumbnail", "--serve", "--out-dir", folder.path])
        for round in 0..<2 {
            // The orientation-6 photo, upright: 61x41 (pictures/upright.rgb).
            try served.send(Fixture.path("pictures/orientation6.jpg"))
            let answer = try served.answer()
            let output = try #require(answer["output"] as? String, "\(answer)")
            #expect(answer["status"] as? String == "ok", "round \(round): \(answer)")
            let picture = try DecodedPNG(path: output)
            #expect(picture.width == 61 && picture.height == 41)
            try FileManager.default.removeItem(atPath: output)
        }
        #expect(try served.finish() == 0)
    }

    /// A line too long to be a path is answered as failed, and what it held is let go.
    @Test func aLineLongerThanAnyPathIsAnsweredAndPassedOver() throws {
        let served = try Served(["probe", "--serve"])
        // 70,000 bytes came whole in the reads past 64 KiB, and were taken for a path ("File name too long").
        for length in [100_000, 70_000, 65_537] {
            try served.send(String(repeating: "a", count: length))
            let long = try served.answer()
            #expect(long["status"] as? String == "failed" && (long["error"] as? String)?.hasPrefix("a line of more than 65536 bytes") == true, "\(long)")
        }
        // An empty line is answered too (the new user's review: a sender was left waiting).
        try served.send("")
        let empty = try served.answer()
        #expect(empty["status"] as? String == "failed" && empty["error"] as? String == "an empty line, which names no file", "\(empty)")
        try served.send(Fixture.path("video/counter.mp4"))
        #expect(try served.answer()["status"] as? String == "ok")
        #expect(try served.finish() == 1)
    }

    /// The hostile review: a folder was answered with a line for each of its files (or none), and
    /// a client reading one line a path fell out of step.
    @Test func aFolderOrStandardInputIsAnsweredWithOneFailedLine() throws {
        let served = try Served(["probe", "--serve"])
        for path in [Fixture.root.appendingPathComponent("video").path, "-", "/dev/stdin"] {
            try served.send(path)
            let answer = try served.answer()
            #expect(answer["input"] as? String == path && answer["status"] as? String == "failed", "\(answer)")
        }
        try served.send(Fixture.path("video/counter.mp4"))
        let counter = try served.answer()
        #expect(counter["input"] as? String == Fixture.path("video/counter.mp4") && counter["status"] as? String == "ok", "\(counter)")
        #expect(try served.finish() == 1)
    }

    /// The hostile review: every path a server was sent stayed an input for its whole life, so an
    /// output once sent as an input could never be written again.
    @Test func anInputIsOneOnlyWhileItsJobRuns() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try Served(["thumbnail", "--serve", "--overwrite", "--out-dir", folder.path])
        try served.send(Fixture.path("pictures/orientation6.jpg"))
        let output = try #require(try served.answer()["output"] as? String)
        try served.send(output)
        #expect(try served.answer()["status"] as? String == "ok")
        try served.send(Fixture.path("pictures/orientation6.jpg"))
        let again = try served.answer()
        #expect(again["status"] as? String == "ok" && again["output"] as? String == output, "\(again)")
        #expect(try served.finish() == 0)
    }

    @Test(arguments: [
        (["probe", "--serve", "a.mp4"], "mediatool: --serve takes its inputs from standard input, not as arguments ('a.mp4')."),
        (["probe", "--serve", "--files-from", "list"], "mediatool: --serve takes its inputs from standard input: --files-from has no place beside it."),
        (["probe", "--serve", "--format", "table"], "mediatool: --serve answers in JSON lines: --format table has no place beside it."),
        (["thumbnail", "--serve", "-o", "t.png"], "mediatool: --serve writes an output for each input it is sent: give --out-dir, not -o."),
    ])
    func whatHasNoPlaceBesideServeIsRefused(arguments: [String], message: String) throws {
        let run = try ToolRun.run(arguments, input: Data())
        #expect(run.status == 64)
        #expect(run.errorLines.first?.hasPrefix(message) == true, "\(run.standardError)")
    }
}
