import Foundation
import Testing
import TestSupport

/// The sandbox, for real: a debug build's trigger (`MEDIATOOL_TEST_WORKER_TRIGGER`) makes the worker
/// of one input of a batch crash, hang, allocate without bound or try what its seccomp filter
/// refuses. Each ends in one line naming the input and what happened, with no output for it; the
/// other inputs of the batch are made, by other workers or the same one.
@Suite struct SandboxTests {
    /// A scratch folder of three copies of a small clip (v1.mkv, v2.mkv, v3.mkv) and a decoy file.
    static func batch() throws -> URL {
        let folder = try Fixture.scratchFolder()
        let videos = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
        for name in ["v1.mkv", "v2.mkv", "v3.mkv"] {
            try FileManager.default.copyItem(atPath: Fixture.path("video/counter.mkv"), toPath: videos.appendingPathComponent(name).path)
        }
        try Data("decoy".utf8).write(to: folder.appendingPathComponent("decoy.txt"))
        return folder
    }

    static func run(trigger: String, in folder: URL, extra: [String] = []) throws -> ToolRun {
        try ToolRun.run(["thumbnail", "--json", "--jobs", "1", "--at", "0.5", "--out-dir", folder.appendingPathComponent("out").path]
                            + extra + [folder.appendingPathComponent("in").path],
                        environment: ["MEDIATOOL_TEST_WORKER_TRIGGER": "\(trigger):v2.mkv"], deadline: 60)
    }

    @Test(arguments: [
        ("crash", [], "the decoder crashed (SIGSEGV); the file was refused"),
        ("abort", [], "the decoder crashed (SIGABRT); the file was refused"),
        ("hang", ["--timeout", "2"], "took longer than --timeout 2 s; the file was refused"),
        ("allocate", ["--max-memory", "256M"], "over the memory limit of 256 MiB (--max-memory); the file was refused"),
        // The reason on the first line of a report longer than any tail kept of it.
        ("sanitizer-oom", ["--max-memory", "256M"], "over the memory limit of 256 MiB (--max-memory); the file was refused"),
        ("socket", [], "socket refused in the worker"),
        ("exec", [], "exec refused in the worker"),
        ("fork", [], "fork refused in the worker"),
        ("signal", [], "signal refused in the worker"),
        ("terminal", [], "terminal refused in the worker"),
        ("flood", ["--max-memory", "1M"],
         "the worker decoding it wrote more than 258 MiB to an output, more than the limits allow, and was ended; the file was refused"),
    ] as [(String, [String], String)])
    func aMisbehavingWorkerCostsItsInputOnly(trigger: String, extra: [String], message: String) throws {
        let folder = try Self.batch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.run(trigger: trigger, in: folder, extra: extra)
        let bad = folder.appendingPathComponent("in/v2.mkv").path
        #expect(run.status == 1)
        #expect(run.errorLines.first == "mediatool: \(bad): \(message)")
        #expect(run.errorLines.dropFirst().first?.hasPrefix("mediatool: summary: 2 ok, 1 failed, 0 skipped of 3 in ") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path).sorted()
                == ["v1.thumb.png", "v3.thumb.png"])
        let lines = try BatchRunTests.jsonLines(run)
        let failed = try #require(lines.first { $0["input"] as? String == bad })
        #expect(failed["status"] as? String == "failed")
        #expect(failed["error"] as? String == message)
    }

    /// Two inputs at once under a 64 MiB budget and a 3 s timeout, v1 holding nearly all of the
    /// budget as `action` says (a test trigger): v1's and v2's report lines, and what was written.
    static func queuedBehindAHostileInput(holding action: String) throws -> (hostile: [String: Any], queued: [String: Any], written: [String]) {
        let folder = try Self.batch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("in/v3.mkv"))
        let budget = 64 << 20
        let run = try ToolRun.run(["thumbnail", "--json", "--jobs", "2", "--timeout", "3", "--max-memory", "64M", "--at", "0.5",
                                   "--out-dir", folder.appendingPathComponent("out").path, folder.appendingPathComponent("in").path],
                                  environment: ["MEDIATOOL_TEST_WORKER_TRIGGER": "\(action):\(budget - 4096):v1.mkv"], deadline: 60)
        let lines = try BatchRunTests.jsonLines(run)
        let hostile = try #require(lines.first { ($0["input"] as? String)?.hasSuffix("v1.mkv") == true })
        let queued = try #require(lines.first { ($0["input"] as? String)?.hasSuffix("v2.mkv") == true })
        return (hostile, queued, try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path))
    }

    /// An input queued behind a hostile one for the run's memory does not pay for it: v1 holds
    /// nearly the whole budget, then asks for as much again and waits; v2, asking for its frame
    /// after v1 took the memory, waited past --timeout and failed with v1's timeout. Now the
    /// budget, stuck, ends the waiter holding the most (v1), and v2 is made.
    @Test func anInputQueuedForMemoryBehindAHostileOneIsMade() throws {
        let (hostile, queued, written) = try Self.queuedBehindAHostileInput(holding: "hold-memory")
        #expect(queued["status"] as? String == "ok", "\(queued)")
        #expect(hostile["status"] as? String == "failed")
        #expect((hostile["error"] as? String)?.contains("for memory of the run's budget (--max-memory 64 MiB) while none was given back, holding the most of those waiting") == true,
                "\(hostile)")
        #expect(written == ["v2.thumb.png"])
    }

    /// The red team's pair: a file whose index takes nearly the whole budget waits for its frame
    /// first, the photo beside it waits after (in 2 of 6 runs the photo was ended, as the last
    /// to wait). The waiter holding the most is ended, whenever it began to wait.
    @Test func theWaiterHoldingTheMostIsEndedNotTheLastToWait() throws {
        let (hostile, queued, written) = try Self.queuedBehindAHostileInput(holding: "hold-memory-waiting")
        #expect(queued["status"] as? String == "ok", "\(queued)")
        #expect((hostile["error"] as? String)?.contains("holding the most of those waiting") == true, "\(hostile)")
        #expect(written == ["v2.thumb.png"])
    }

    /// An input queued for memory behind a hostile one that holds it and works on (a slow decode)
    /// is made once the hostile one's deadline ends it: it waited as long as that deadline, and
    /// gave up at the same moment, before the memory came back.
    @Test func anInputQueuedBehindASlowHostileOneIsMadeAfterItsDeadline() throws {
        let (hostile, queued, written) = try Self.queuedBehindAHostileInput(holding: "hold-memory-working")
        #expect(hostile["status"] as? String == "failed")
        #expect((hostile["error"] as? String)?.contains("took longer than --timeout") == true, "\(hostile)")
        #expect(queued["status"] as? String == "ok", "\(queued)")
        #expect(written == ["v2.thumb.png"])
    }

    /// A worker whose hello is cut short (a first packet saying more follows, then nothing) held
    /// the call forever: the rest is waited for as long as a start, and the input fails.
    @Test func aWorkerWhoseHelloIsCutShortFailsItsInputInTime() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["thumbnail", "--timeout", "2", Fixture.path("video/counter.mp4"), "-o", folder.appendingPathComponent("t.png").path],
                                  environment: ["MEDIATOOL_TEST_WORKER_TRIGGER": "hello-cut:"], deadline: 90)
        #expect(run.status == 1)
        #expect(run.errorLines.first?.contains("a sandboxed worker did not start") == true, "\(run.errorLines)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// A worker that says it is done without writing its output: no empty file is put in place and
    /// reported "ok"; the input fails, the others go on.
    @Test func aWorkerDoneWithoutWritingFailsItsInput() throws {
        let folder = try Self.batch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.run(trigger: "silent", in: folder)
        let bad = folder.appendingPathComponent("in/v2.mkv").path
        #expect(run.status == 1)
        let line = try #require(run.errorLines.first)
        #expect(line.hasPrefix("mediatool: \(bad): the worker decoding it wrote nothing to "), "\(line)")
        #expect(line.hasSuffix("v2.thumb.png and said it was done; the file was refused"), "\(line)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path).sorted()
                == ["v1.thumb.png", "v3.thumb.png"])
        // A probe, whose report is all it writes: an empty one was printed "ok", with no facts.
        let probe = try ToolRun.run(["probe", "--json", folder.appendingPathComponent("in").path],
                                    environment: ["MEDIATOOL_TEST_WORKER_TRIGGER": "silent:v2.mkv"], deadline: 60)
        #expect(probe.status == 1)
        let answer = try #require(try BatchRunTests.jsonLines(probe).first { $0["input"] as? String == bad })
        #expect(answer["status"] as? String == "failed" && answer["error"] as? String
                == "the worker decoding it wrote nothing to its report and said it was done; the file was refused", "\(answer)")
    }

    /// A side output (a later size) the worker closes without a byte and then says "done" of is
    /// refused as the planned one is, and nothing of that input is put in place. (An error the
    /// worker sends after closing one is the job's own: `AVIFOutputTests`.)
    @Test func aWorkerDoneWithASideOutputLeftEmptyFailsItsInput() throws {
        let folder = try Self.batch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["thumbnail", "--sizes", "16,32", "--at", "0", "--out-dir", folder.appendingPathComponent("out").path,
                                   "--name", "{stem}.{size}.png", folder.appendingPathComponent("in").path],
                                  environment: ["MEDIATOOL_TEST_WORKER_TRIGGER": "empty-side:v2.mkv"], deadline: 120)
        #expect(run.status == 1)
        let line = try #require(run.errorLines.first)
        #expect(line.hasSuffix("v2.32.png and said it was done; the file was refused"), "\(line)")
        let made = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path).sorted()
        #expect(!made.contains { $0.hasPrefix("v2.") }, "\(made)")
        #expect(made.contains("v1.16.png") && made.contains("v3.32.png"), "\(made)")
    }

    /// Opening a file by name, or changing its mode, is refused inside the worker, even for a file the user may change.
    @Test func openingAFileIsRefusedInTheWorker() throws {
        let folder = try Self.batch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let decoy = folder.appendingPathComponent("decoy.txt").path
        let run = try Self.run(trigger: "open:\(decoy)", in: folder)
        #expect(run.errorLines.first == "mediatool: \(folder.appendingPathComponent("in/v2.mkv").path): open refused in the worker")
        #expect(try String(contentsOfFile: decoy, encoding: .utf8) == "decoy")
        let chmod = try Self.run(trigger: "chmod:\(decoy)", in: folder, extra: ["--overwrite"])
        #expect(chmod.errorLines.first == "mediatool: \(folder.appendingPathComponent("in/v2.mkv").path): chmod refused in the worker")
    }

    /// A worker gets a pipe to each output, never the file: what it keeps of one cannot change an
    /// output once mediatool moved it into place.
    @Test func aWorkerCannotChangeAnOutputAfterIt() throws {
        let folder = try Self.batch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["thumbnail", "--jobs", "1", "--at", "0.5", "--out-dir", folder.appendingPathComponent("out").path,
                                   folder.appendingPathComponent("in").path],
                                  environment: ["MEDIATOOL_TEST_WORKER_TRIGGER": "tamper:v1.mkv"], deadline: 60)
        #expect(run.status == 0)
        // The three clips are one: their thumbnails are the same bytes, v1's too.
        let first = try Data(contentsOf: folder.appendingPathComponent("out/v1.thumb.png"))
        let second = try Data(contentsOf: folder.appendingPathComponent("out/v2.thumb.png"))
        let third = try Data(contentsOf: folder.appendingPathComponent("out/v3.thumb.png"))
        #expect(!first.isEmpty && first == second && first == third)
    }

    /// A worker given an output to write itself (an ingest's web video, whose index is moved
    /// first in the file) is ended with its job: kept for the next input, it could change the
    /// file once mediatool moved it into place.
    @Test func aWorkerThatWroteAFileItselfIsNotKept() throws {
        let folder = try Self.batch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recipe = try IngestRunTests.writeRecipe(#"{"renditions": [], "storyboard": false, "preview": false, "placeholders": false, "hashes": false}"#, in: folder)
        let run = try ToolRun.run(["ingest", "--jobs", "1", "--recipe", recipe, "--out-dir", folder.appendingPathComponent("out").path,
                                   folder.appendingPathComponent("in").path],
                                  environment: ["MEDIATOOL_TEST_WORKER_TRIGGER": "tamper-beside:v1.mkv"], deadline: 120)
        #expect(run.status == 0, "\(run.standardError)")
        // The three clips are one: their web videos are the same bytes, v1's too.
        let videos = try ["v1", "v2", "v3"].map { try Data(contentsOf: folder.appendingPathComponent("out/\($0).mkv.web.mp4")) }
        #expect(!videos[0].isEmpty && videos[0] == videos[1] && videos[0] == videos[2], "\(videos.map(\.count))")
    }

    /// Every thread of a worker is confined, not only the one that set the filter: seccomp in
    /// filter mode, no new privileges, no capabilities, as /proc tells from outside.
    /// Its command line is `mediatool __worker`: the job comes through its socket, and no input's
    /// name or option shows to other users in `ps` (`/proc/PID/cmdline` is world-readable).
    @Test func everyThreadOfAWorkerIsConfined() throws {
        let folder = try Self.batch()
        defer { try? FileManager.default.removeItem(at: folder) }
        var statuses: [String] = []
        var commandLine = ""
        _ = try ChildProcess.run(ToolRun.executable.path,
                                 ["thumbnail", "--jobs", "1", "--timeout", "60", "--out-dir", folder.appendingPathComponent("out").path,
                                  folder.appendingPathComponent("in/v2.mkv").path],
                                 environment: ["MEDIATOOL_TEST_WORKER_TRIGGER": "hang:v2.mkv"], deadline: 60) { process in
            let parent = process.processIdentifier
            var worker: String?
            // The worker, once it hangs in its job: a child of mediatool asleep in pause().
            try ChildProcess.waitUntil("the worker hanging in its job", deadline: 30) {
                let children = (try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8)) ?? ""
                let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(parent)/task")) ?? []
                let pids = all.flatMap { task in
                    ((try? String(contentsOfFile: "/proc/\(parent)/task/\(task)/children", encoding: .utf8)) ?? "").split(separator: " ")
                } + children.split(separator: " ")
                worker = pids.map(String.init).first { pid in
                    (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8))?.contains("pause") == true
                        || (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.contains(") S ") == true
                        && (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8))?.contains("Seccomp:\t2") == true
                }
                return worker != nil
            }
            let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(worker!)/task")
            statuses = try tasks.map { try String(contentsOfFile: "/proc/\(worker!)/task/\($0)/status", encoding: .utf8) }
            commandLine = try String(contentsOfFile: "/proc/\(worker!)/cmdline", encoding: .utf8)
            kill(parent, SIGKILL)
        }
        #expect(commandLine == "mediatool\u{0}__worker\u{0}")
        #expect(!statuses.isEmpty)
        for status in statuses {
            let lines = status.split(separator: "\n")
            #expect(lines.contains("Seccomp:\t2"), "\(lines.first ?? "")")
            #expect(lines.contains("NoNewPrivs:\t1"), "\(lines.first ?? "")")
            #expect(lines.contains("CapEff:\t0000000000000000"), "\(lines.first ?? "")")
        }
    }

    /// The same thumbnail and crop, byte for byte, in a worker and in this process.
    @Test func theSandboxChangesNoByte() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for mode in ["on", "off"] {
            let thumbnail = try ToolRun.run(["thumbnail", "--sandbox", mode, "--at", "1", Fixture.path("video/counter.mp4"),
                                             "-o", folder.appendingPathComponent("t-\(mode).png").path])
            #expect(thumbnail.status == 0)
            let crop = try ToolRun.run(["crop", "--sandbox", mode, "--rect", "8,8,40,30", Fixture.path("heif/grid6.heic"),
                                        "-o", folder.appendingPathComponent("c-\(mode).jpg").path])
            #expect(crop.status == 0)
        }
        for name in ["t", "c"] {
            let on = try Data(contentsOf: folder.appendingPathComponent("\(name)-on.\(name == "t" ? "png" : "jpg")"))
            let off = try Data(contentsOf: folder.appendingPathComponent("\(name)-off.\(name == "t" ? "png" : "jpg")"))
            #expect(!on.isEmpty && on == off, "\(name)")
        }
    }

    /// A job's own error comes back in its own words, and the worker goes on to the next input.
    @Test func aJobErrorIsTheJobsOwnWords() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.png")
        try Data("not a picture".utf8).write(to: bad)
        let good = Fixture.path("pictures/rgb8.png")
        let run = try ToolRun.run(["crop", "--jobs", "1", "--rect", "0,0,2,2", "--out-dir", folder.appendingPathComponent("out").path,
                                   bad.path, good])
        #expect(run.status == 1)
        #expect(run.errorLines.first == "mediatool: \(bad.path): not a PNG, JPEG, WebP, HEIF, AVIF or TIFF file")
        #expect(run.errorLines.dropFirst().first?.hasPrefix("mediatool: summary: 1 ok, 1 failed") == true)
    }

    /// A storyboard's worker asks for its pictures one by one; when it crashes, none of them is
    /// left, and the other videos' storyboards are whole.
    @Test func aCrashedStoryboardLeavesNothing() throws {
        let folder = try Self.batch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let run = try ToolRun.run(["storyboard", "--jobs", "1", "--count", "8", "--tile", "2x2", "--out-dir", out.path,
                                   folder.appendingPathComponent("in").path],
                                  environment: ["MEDIATOOL_TEST_WORKER_TRIGGER": "crash:v2.mkv"], deadline: 60)
        #expect(run.status == 1)
        #expect(run.errorLines.first == "mediatool: \(folder.appendingPathComponent("in/v2.mkv").path): the decoder crashed (SIGSEGV); the file was refused")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
                == ["v1.sheet-1.jpg", "v1.sheet-2.jpg", "v1.vtt", "v3.sheet-1.jpg", "v3.sheet-2.jpg", "v3.vtt"])
    }

    /// The same storyboard, byte for byte, from a worker and from this process.
    @Test func aSandboxedStoryboardIsTheSame() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for mode in ["on", "off"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(mode), withIntermediateDirectories: true)
            let run = try ToolRun.run(["storyboard", "--sandbox", mode, "--count", "6", "--tile", "2x2",
                                       "--vtt", folder.appendingPathComponent("\(mode)/s.vtt").path,
                                       "--html", folder.appendingPathComponent("\(mode)/s.html").path, Fixture.path("video/counter.mp4")])
            #expect(run.status == 0, "\(run.standardError)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("on").path).sorted()
        #expect(names == ["s.html", "s.sheet-1.jpg", "s.sheet-2.jpg", "s.vtt"])
        #expect(names == (try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("off").path).sorted()))
        for name in names where name != "s.html" {
            let on = try Data(contentsOf: folder.appendingPathComponent("on/\(name)"))
            #expect(on == (try Data(contentsOf: folder.appendingPathComponent("off/\(name)"))), "\(name)")
        }
    }

    @Test func versionSaysWhatTheSandboxApplies() throws {
        let run = try ToolRun.run(["--version"])
        #expect(run.output.contains("sandbox: seccomp filter (libseccomp "))
    }
}
