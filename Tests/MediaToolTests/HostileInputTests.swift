import Foundation
import Glibc
import FileIO
import Testing
import TestSupport

/// Inputs and names an attacker or an unlucky user would give. Each test failed before
/// the fix it names.
@Suite struct HostileInputTests {
    static let picture = Fixture.path("pictures/rgb8.png")

    /// A scratch folder with `picture` copied in as each of `names`.
    static func folder(with names: [String]) throws -> URL {
        let folder = try Fixture.scratchFolder()
        for name in names {
            let target = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: picture, toPath: target.path)
        }
        return folder
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    // MARK: 1. No write outside the output folder

    @Test func aNameCannotLeadOutOfTheOutputFolder() throws {
        let folder = try Self.folder(with: ["a.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try "victim\n".write(toFile: folder.appendingPathComponent("victim.txt").path, atomically: false, encoding: .utf8)
        let run = try ToolRun.run(["crop", "--overwrite", "--out-dir", "out", "--name", "../victim.txt", "--rect", "0,0,2,2", "a.png"],
                                  in: folder)
        #expect(run.status == 64)
        #expect(run.standardError.contains("no '..'"))
        #expect(try String(contentsOfFile: folder.appendingPathComponent("victim.txt").path, encoding: .utf8) == "victim\n")
    }

    @Test func theFolderNameIsTheRealOneNotDotDot() throws {
        let folder = try Self.folder(with: ["src/a.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("src/sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("src/src"), withIntermediateDirectories: true)
        let run = try ToolRun.run(["crop", "--name", "{dir}/{stem}.png", "--rect", "0,0,2,2", "src/sub/../a.png"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        // {dir} of src/sub/.. is src: the crop lands in src/src/, beside the input, never in the folder above.
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("src/src/a.png").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("a.png").path))
    }

    /// The hostile review: a file named `...png` (its stem `..`) under `--name '{stem}/thumb.png'`
    /// stopped the whole batch (exit 64). It is one failed input; the others are made.
    @Test func aNameThatLeadsOutFailsItsInputOnly() throws {
        let folder = try Self.folder(with: ["a.png", "names/...png", "b.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["crop", "--rect", "0,0,2,2", "--name", "{stem}/crop.png", "--out-dir", "out", "a.png", "names/...png", "b.png"],
                                  in: folder)
        #expect(run.status == 1)
        #expect(run.errorLines.first == "mediatool: names/...png: output out/../crop.png would be written outside out (a name may not lead out of its folder)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/a/crop.png").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/b/crop.png").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("crop.png").path))
    }

    @Test func aLinkedFolderUnderTheOutputFolderCannotLeadOut() throws {
        let folder = try Self.folder(with: ["in/sub/a.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("out/sub").path, withDestinationPath: "../elsewhere")
        let run = try ToolRun.run(["crop", "--recursive", "--out-dir", "out", "--rect", "0,0,2,2", "in"], in: folder)
        // That input fails (its path leads out), not the run: the others go on.
        #expect(run.status == 1)
        #expect(run.standardError.contains("would be written outside out"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("elsewhere").path) == [])
    }

    // MARK: 2. No input replaced

    @Test func anOutputThatIsAnotherInputIsRefusedUpFront() throws {
        let folder = try Self.folder(with: ["x.png", "x.crop.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = Self.bytes(folder.appendingPathComponent("x.crop.png").path)
        let run = try ToolRun.run(["crop", "--overwrite", "--rect", "0,0,2,2", "x.png", "x.crop.png"], in: folder)
        #expect(run.status == 64)
        #expect(run.standardError.contains("output x.crop.png is the input x.crop.png"))
        #expect(Self.bytes(folder.appendingPathComponent("x.crop.png").path) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["x.crop.png", "x.png"])
    }

    @Test func aThumbnailNeverReplacesAnInputByAnyName() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("c.mp4").path
        try FileManager.default.copyItem(atPath: Fixture.path("video/anamorphic.mp4"), toPath: clip)
        // The second input is the first one's output, under another name (a hard link).
        try FileManager.default.linkItem(atPath: clip, toPath: folder.appendingPathComponent("c.thumb.png").path)
        let run = try ToolRun.run(["thumbnail", "--overwrite", "c.mp4", "c.thumb.png"], in: folder)
        #expect(run.status == 64)
        #expect(Self.bytes(clip) == Self.bytes(Fixture.path("video/anamorphic.mp4")))
    }

    // MARK: 3. Special files

    @Test func aDeviceNamedByTheUserIsWrittenThroughNotReplaced() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("null").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        for output in ["/dev/null", link] {
            let run = try ToolRun.run(["crop", "-o", output, "--overwrite", "--rect", "0,0,2,2", Self.picture])
            #expect(run.status == 0, "\(run.standardError)")
        }
        var status = stat()
        #expect(lstat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/null")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["null"])
    }

    @Test func aLinkAmongPlannedOutputsIsNeverReplaced() throws {
        let folder = try Self.folder(with: ["a.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("a.crop.png").path, withDestinationPath: "/dev/null")
        let run = try ToolRun.run(["crop", "--overwrite", "--rect", "0,0,2,2", "a.png"], in: folder)
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: a.png: output is a symbolic link: a.crop.png (only a regular file is ever replaced)"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("a.crop.png").path) == "/dev/null")
    }

    @Test func aFIFONobodyReadsIsAnErrorNotAWait() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("out.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let run = try ToolRun.run(["crop", "-o", fifo, "--rect", "0,0,2,2", Self.picture])
        #expect(run.status == 1)
        #expect(run.standardError.contains("no process reads the FIFO"))
    }

    /// Whether this process may make a device node (root with CAP_MKNOD): tried once, in a scratch folder.
    static let canMakeDevices: Bool = {
        guard let folder = try? Fixture.scratchFolder() else { return false }
        defer { try? FileManager.default.removeItem(at: folder) }
        return mknod(folder.appendingPathComponent("null").path, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0
    }()

    @Test(.enabled(if: try Requirement.met(canMakeDevices, "making a device node needs root (CAP_MKNOD)"),
                   "making a device node needs root (CAP_MKNOD): run the suite as root to test this"))
    func aCharacterDeviceMadeHereIsNeverReplaced() throws {
        let folder = try Self.folder(with: ["a.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let node = folder.appendingPathComponent("a.crop.png").path
        // The same device as /dev/null (1, 3); only root may make one.
        try #require(mknod(node, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)
        let run = try ToolRun.run(["crop", "--overwrite", "--rect", "0,0,2,2", "a.png"], in: folder)
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: a.png: output is a character device: a.crop.png (only a regular file is ever replaced)"])
        var status = stat()
        #expect(lstat(node, &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    // MARK: 4. FIFOs as inputs, one open, signals

    @Test func aFIFOAmongAFoldersFilesDoesNotHang() throws {
        let folder = try Self.folder(with: ["a.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(mkfifo(folder.appendingPathComponent("b.png").path, 0o600) == 0)
        let run = try ToolRun.run(["crop", "--rect", "0,0,2,2", "."], in: folder, deadline: 60)
        #expect(run.status == 1)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("a.crop.png").path))
        #expect(run.errorLines.first == "mediatool: ./b.png: an empty file")
    }

    @Test func aStreamIsReadOnceAndCroppedLikeTheFile() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("stream").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let bytes = try Fixture.data("pictures/orientation6.jpg")
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: fifo)!
            handle.write(bytes)
            try? handle.close()
        }
        writer.start()
        let fromStream = folder.appendingPathComponent("stream.png").path
        let fromFile = folder.appendingPathComponent("file.png").path
        #expect(try ToolRun.run(["crop", "--rect", "1,2,20,10", fifo, "-o", fromStream]).status == 0)
        #expect(try ToolRun.run(["crop", "--rect", "1,2,20,10", Fixture.path("pictures/orientation6.jpg"), "-o", fromFile]).status == 0)
        #expect(try DecodedPNG(path: fromStream).bytes == DecodedPNG(path: fromFile).bytes)
    }

    @Test func aDeviceIsNotTakenForAPicture() throws {
        let output = try ScratchOutput("never-written.png")
        let run = try ToolRun.run(["crop", "--rect", "0,0,2,2", "/dev/zero", "-o", output.path])
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: /dev/zero: not a regular file (a character device): pictures and videos are read from files, FIFOs and pipes"])
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalEndsALongRead(signal: Int32) throws {
        // An endless input: the run can only end by the signal, once it is reading.
        let run = try SignalledRun(["dump-doubles", "/dev/zero"], signal: signal) { pid in SignalledRun.bytesRead(by: pid) > 1 << 20 }
        #expect(run.status == 128 + signal)
    }

    @Test func aSignalEndsACropWaitingOnASilentWriter() throws {
        try SilentFIFO.with { folder, fifo in
            let run = try SignalledRun(["crop", "--rect", "0,0,2,2", fifo, "-o", folder.appendingPathComponent("out.png").path],
                                       signal: SIGTERM, when: ChildProcess.isBlockedReading)
            #expect(run.status == 143)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["silent"])
        }
    }

    /// A signal sent 0 to 30 ms after the start, while the threads start, was lost about
    /// once in 70 runs and the run waited forever on its FIFO. Each run here must end by the signal.
    @Test func aSignalAsEarlyAsTheStartIsNeverLost() throws {
        try SilentFIFO.with { folder, fifo in
            for attempt in 0..<60 {
                // The point is an arbitrary early moment, not synchronisation: 0 to 30 ms, spread evenly.
                let delay = UInt32(attempt % 31) * 1000
                let run = try SignalledRun(["crop", "--jobs", "2", "--rect", "0,0,2,2", fifo, "-o", folder.appendingPathComponent("out.png").path],
                                           signal: SIGTERM, deadline: 30) { _ in
                    usleep(delay)
                    return true
                }
                // Before main blocks the signal its default action ends the process; after, the tool does.
                #expect(run.status == 143 || (run.wasSignalled && run.status == SIGTERM), "attempt \(attempt): \(run.status)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["silent"])
        }
    }

    @Test func aSecondSignalEndsTheGraceAtOnce() throws {
        try SilentFIFO.with { folder, fifo in
            // A batch's first signal leaves the work under way its grace; the second ends it.
            let run = try SignalledRun(["crop", "--rect", "0,0,2,2", fifo, "-o", folder.appendingPathComponent("out.png").path],
                                       signal: SIGINT, then: SIGTERM, when: ChildProcess.isBlockedReading)
            #expect(run.status == 130)
        }
    }

    /// Past the grace, the batch's summary so far is still said (it was not: the process ended
    /// from the signal's thread without it).
    @Test func aBatchEndedPastItsGraceStillSaysItsSummary() throws {
        try SilentFIFO.with { folder, fifo in
            try FileManager.default.copyItem(atPath: Self.picture, toPath: folder.appendingPathComponent("z.png").path)
            let run = try ChildProcess.run(ToolRun.executable.path, ["crop", "--jobs", "1", "--rect", "0,0,2,2", fifo,
                                                                      folder.appendingPathComponent("z.png").path]) { process in
                try ChildProcess.waitUntil("the run to read the FIFO") { ChildProcess.isBlockedReading(process.processIdentifier) }
                kill(process.processIdentifier, SIGINT)
            }
            #expect(run.status == 130)
            let lines = String(decoding: run.standardError, as: UTF8.self).split(separator: "\n")
            #expect(lines.last?.hasPrefix("mediatool: summary: 0 ok, 0 failed, 0 skipped of 2 in ") == true, "\(lines)")
            #expect(lines.last?.hasSuffix(" s, interrupted") == true)
        }
    }

    // MARK: 5. No partial output after a signal

    /// SIGHUP (a terminal or ssh session closing) and SIGQUIT (Ctrl-\\) are taken as SIGINT and
    /// SIGTERM are: a hostile review found SIGHUP left the temporary file behind.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
    func packDoublesInterruptedCommitsNothing(signal: Int32) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out.bin").path
        // Standard input stays open: the values so far are not the whole input.
        let run = try SignalledRun(["pack-doubles", "-o", out], signal: signal, input: "1 2 3\n", when: ChildProcess.isBlockedReading)
        #expect(run.status == 128 + signal)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    /// A signal the process was started with ignored stays ignored (`nohup` ignores SIGHUP; a
    /// script's background job, SIGINT and SIGQUIT): the seventh red team's `nohup mediatool
    /// ingest ...` ended at the terminal's hangup with status 129 and nothing made.
    @Test(arguments: [SIGHUP, SIGINT, SIGQUIT])
    func aSignalIgnoredByWhoeverStartedTheRunStaysIgnored(signal: Int32) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out.bin").path
        let stdin = Pipe()
        stdin.fileHandleForWriting.write(Data("1 2 3\n".utf8))
        defer { try? stdin.fileHandleForReading.close() }
        // The shell ignores the signal, and the tool it becomes starts with it ignored.
        let run = try ChildProcess.run("/bin/sh", ["-c", "trap '' \(signal); exec \"$0\" \"$@\"", ToolRun.executable.path,
                                                   "pack-doubles", "-o", out], standardInput: stdin.fileHandleForReading) { process in
            try ChildProcess.waitUntil("the run to read its input") { ChildProcess.isBlockedReading(process.processIdentifier) }
            kill(process.processIdentifier, signal)
            usleep(200_000)
            try stdin.fileHandleForWriting.close()
        }
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)).count == 24)
    }

    @Test func aDeadRunsTemporaryIsRemovedByTheNextRun() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // pid 2^22 + 1 is above Linux's largest: no such process lives.
        let stale = folder.appendingPathComponent(".mediatool-tmp-4194305-abc-\(AtomicOutputFile.hostTag)").path
        try Data("partial".utf8).write(to: URL(fileURLWithPath: stale))
        let out = folder.appendingPathComponent("out.bin").path
        #expect(try ToolRun.run(["pack-doubles", "-o", out], input: Data("1 2\n".utf8)).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.bin"])
    }

    // MARK: 7. Names, reports and listings

    @Test func aNewlineInANameCannotForgeALine() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "a\nmediatool: summary: 9 ok\u{1B}[2J.png"
        try Data("not a picture".utf8).write(to: folder.appendingPathComponent(name))
        let run = try ToolRun.run(["crop", "--rect", "0,0,2,2", "."], in: folder)
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: ./a\\nmediatool: summary: 9 ok\\x1b[2J.png: not a PNG, JPEG, WebP, HEIF, AVIF or TIFF file"])
        #expect(!run.standardError.contains("\u{1B}"))
    }

    @Test func aNameThatIsNotUTF8IsFoundOpenedAndWrittenBack() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // "café.png" in Latin-1, as a camera card written on Windows names it.
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".png".utf8)
        let path = Array(folder.path.utf8) + [UInt8(ascii: "/")] + name
        let data = try Fixture.data("pictures/rgb8.png")
        let fd = (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) } }
        #expect(fd >= 0)
        _ = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, data.count) }
        close(fd)
        let run = try ToolRun.run(["crop", "--json", "--rect", "0,0,2,2", "."], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count == 2)
        // The output's name holds the same byte 0xE9, and the report gives it as Python's surrogateescape would.
        let expected = Array("caf".utf8) + [0xE9] + Array(".crop.png".utf8)
        let output = Array(folder.path.utf8) + [UInt8(ascii: "/")] + expected + [0]
        var status = stat()
        #expect(output.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &status) } } == 0)
        #expect(run.output.contains(#""output":"./caf\uDCE9.crop.png""#))
        // A thumbnail's own list of its outputs writes the name as the batch does.
        let thumbnail = try ToolRun.run(["thumbnail", "--json", "--sizes", "2,4", "--out-dir", "thumbs", "."], in: folder)
        #expect(thumbnail.status == 0, "\(thumbnail.standardError)")
        #expect(thumbnail.output.contains(#""output":"thumbs/caf\uDCE9.2.png""#), "\(thumbnail.output)")
        #expect(thumbnail.output.contains(#""path":"thumbs/caf\uDCE9.4.png""#), "\(thumbnail.output)")
    }

    @Test func anOutputNameOf250BytesIsWritten() throws {
        let stem = String(repeating: "n", count: 241)
        let folder = try Self.folder(with: ["\(stem).png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRun.run(["crop", "--rect", "0,0,2,2", "\(stem).png"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(stem).crop.png").path))
    }

    @Test func aReportThatCannotBeWrittenIsAnError() throws {
        let folder = try Self.folder(with: ["a.png"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ChildProcess.run(ToolRun.executable.path, ["crop", "--json", "--rect", "0,0,2,2", "a.png"],
                                       standardOutput: FileHandle(forWritingAtPath: "/dev/full"), directory: folder)
        let text = String(decoding: run.standardError, as: UTF8.self)
        #expect(run.status == 1)
        #expect(text.contains("mediatool: the report on standard output is incomplete: cannot write to standard output: No space left on device"))
        // probe's lines are its report whether or not --json is given: they were lost to a full disk with exit 0.
        let probe = try ChildProcess.run(ToolRun.executable.path, ["probe", Fixture.path("video/counter.mp4")],
                                         standardOutput: FileHandle(forWritingAtPath: "/dev/full"), directory: folder)
        #expect(probe.status == 1)
        #expect(String(decoding: probe.standardError, as: UTF8.self).contains("mediatool: the report on standard output is incomplete"))
    }

    @Test func failedInputsAreListedInTheirOrder() throws {
        let names = (0..<12).map { String(format: "%02d.png", $0) }
        let folder = try Fixture.scratchFolder()
        let outputs = try Fixture.scratchFolder()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: outputs)
        }
        for (index, name) in names.enumerated() {
            let source = index % 2 == 0 ? Fixture.path("bad/png-bad-crc.png") : Self.picture
            try FileManager.default.copyItem(atPath: source, toPath: folder.appendingPathComponent(name).path)
        }
        let expected = names.enumerated().filter { $0.offset % 2 == 0 }.map { "mediatool: failed: ./\($0.element)" }
        for _ in 0..<3 {
            let run = try ToolRun.run(["crop", "--jobs", "4", "--overwrite", "--out-dir", outputs.path,
                                       "--rect", "0,0,2,2", "."], in: folder)
            // The whole standard error on a mismatch: a good input listed as failed says why there.
            #expect(run.errorLines.filter { $0.hasPrefix("mediatool: failed: ") } == expected,
                    "\(run.errorLines.joined(separator: "\n"))")
        }
    }

    @Test(.enabled(if: try Requirement.met(geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                                         "as root, a folder is unreadable only to another user, which needs setpriv"),
                   "as root, a folder is unreadable only to another user, which needs setpriv (util-linux)"))
    func anUnreadableSubfolderIsOneFailedInput() throws {
        let folder = try Self.folder(with: ["a/x.png", "b/y.png", "c/z.png"])
        defer {
            chmod(folder.appendingPathComponent("b").path, 0o755)
            try? FileManager.default.removeItem(at: folder)
        }
        chmod(folder.appendingPathComponent("b").path, 0)
        chmod(folder.path, 0o777)
        for sub in ["a", "c"] { chmod(folder.appendingPathComponent(sub).path, 0o777) }
        // Root reads any folder: run as nobody where the test runs as root, from a copy of the
        // binary nobody can reach (a clone in /root or a mktemp -d folder is closed to others).
        let prefix = geteuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let binaries = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: binaries) }
        var executable = ToolRun.executable.path
        if !prefix.isEmpty {
            executable = binaries.appendingPathComponent("mediatool").path
            try FileManager.default.copyItem(atPath: ToolRun.executable.path, toPath: executable)
            chmod(binaries.path, 0o755)
        }
        let run = try ChildProcess.run(prefix.first ?? executable,
                                       Array(prefix.dropFirst()) + (prefix.isEmpty ? [] : [executable])
                                           + ["crop", "--recursive", "--rect", "0,0,2,2", "."],
                                       standardOutput: FileHandle.nullDevice, directory: folder)
        let text = String(decoding: run.standardError, as: UTF8.self)
        #expect(run.status == 1, "\(text)")
        #expect(text.contains("mediatool: ./b: cannot read the folder: Permission denied"))
        #expect(text.contains("mediatool: summary: 2 ok, 1 failed, 0 skipped of 3"))
    }
}

/// A FIFO in a scratch folder that a writer holds open and never writes to: a read of it waits.
enum SilentFIFO {
    static func with(_ body: (_ folder: URL, _ fifo: String) throws -> Void) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("silent").path
        guard mkfifo(fifo, 0o600) == 0 else { throw SystemError("cannot make a FIFO") }
        let holder = Glibc.open(fifo, O_RDWR)
        defer { close(holder) }
        try body(folder, fifo)
    }
}

/// A run of mediatool sent a signal once `ready` says it is in the state to test (never after a
/// fixed sleep), and optionally a second one; it must then end by its deadline.
struct SignalledRun {
    let status: Int32
    let wasSignalled: Bool

    init(_ arguments: [String], signal: Int32, then second: Int32? = nil, input: String? = nil, deadline: Double = 60,
         when ready: @escaping (Int32) throws -> Bool) throws {
        // Standard input stays open while the test runs: the values written are not the whole input.
        let stdin = Pipe()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        defer {
            try? stdin.fileHandleForWriting.close()
            try? stdin.fileHandleForReading.close()
        }
        let run = try ChildProcess.run(ToolRun.executable.path, arguments, standardInput: stdin.fileHandleForReading,
                                       standardOutput: FileHandle.nullDevice, deadline: deadline) { process in
            let pid = process.processIdentifier
            try ChildProcess.waitUntil("mediatool \(arguments.first ?? "") to be ready for the signal", deadline: deadline) { try ready(pid) }
            kill(pid, signal)
            if let second { kill(pid, second) }
        }
        status = run.status
        wasSignalled = run.wasSignalled
    }

    /// What the process has read so far (/proc's count).
    static func bytesRead(by pid: Int32) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return 0 }
        let line = text.split(separator: "\n").first { $0.hasPrefix("rchar:") }
        return line.flatMap { Int($0.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
    }
}
