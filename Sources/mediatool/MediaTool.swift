import ArgumentParser
import Sandbox
import Jobs
import JSON
import Glibc
import FFmpeg
import HEIFCodec
import TIFFCodec
import JPEGCodec
import WebPCodec
import WorkerPool
import FileIO
import Batch
import ColourManagement
import ImageCodecs
import PNGCodec
import Reporting

@main
struct MediaTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mediatool",
        abstract: "Batch media and binary processing: thumbnails, storyboards, hover previews and web videos, orientation-aware crops, metadata stripped, probes, whole ingests, binary arrays.",
        discussion: """
            Every subcommand takes many inputs. Exit status: 0 when every input succeeded, 1 when any \
            input failed (the others are still processed), 64 for usage errors. Errors are one line \
            on standard error: 'mediatool: <input>: <what went wrong>'.
            """,
        subcommands: [Thumbnail.self, Storyboard.self, Preview.self, Transcode.self, Crop.self, Strip.self, Probe.self, Ingest.self, DumpDoubles.self, PackDoubles.self, DumpArray.self, PackArray.self]
    )

    // Not CommandConfiguration's version: that string is built at every start, and reading FFmpeg's
    // versions loads FFmpeg, which only video work should pay for.
    @Flag(help: "Show the version of mediatool and of the libraries it runs with.")
    var version = false

    /// The arguments as the bytes they are: a file name need not be UTF-8 (see `PathBytes`), and
    /// CommandLine.arguments would have replaced what is not.
    static func main() {
        FileSystem.holdStandardDescriptors()
        FileSystem.noteInheritedDescriptors()
        let arguments = (1..<Int(CommandLine.argc)).map { index in
            let argument = CommandLine.unsafeArgv[index]!
            return PathBytes.string(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
        // The command line's messages name its flags (`--max-pixels`), the library's its API.
        Setting.nameFlags()
        // A sandboxed worker ignores the signals (the batch decides), and starts no thread before
        // it is confined. It is told each job through its socket, never by its command line.
        if let worker = SandboxWorker.current, arguments == [SandboxWorker.entryPoint] {
            FileSystem.raiseOpenFileLimit()
            worker.serve(prepare: { try JobSpec.prepare($0) }, job: { sent, threads in
                try JSONValueDecoder.decode(JobSpec.self, from: sent).borrowingMemory(from: worker.memoryLender).job(threads: threads)
            })
        }
        // Before any thread starts, so that no signal can be lost (see Interrupts).
        Interrupts.install()
        // A signal or a reader gone ends the process without a deinit: its workers are ended and
        // waited for then, not left to whatever reaps orphans.
        Interrupts.onEnd { LiveChildren.endAll() }
        FileSystem.raiseOpenFileLimit()
        run(spellingOptionalValues(arguments))
    }

    /// Parses and runs; a usage error is one line, `mediatool: <what> (see 'mediatool <subcommand>
    /// --help')`, exit status 64, like every other error the tool reports, instead of the parser's
    /// three (error, usage, where to look).
    static func run(_ arguments: [String]) -> Never {
        do {
            try checkSubcommand(arguments)
            var command = try parseAsRoot(arguments)
            SandboxOptions.prestartZygote(for: command)
            try command.run()
            Glibc.exit(0)
        } catch {
            let code = exitCode(for: error)
            guard code == .validationFailure, !(error is CleanExit) else { exit(withError: error) }
            var text = message(for: error)
            if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
            let line = withoutFarGuess(Self.oneLine(text))
            let names = configuration.subcommands.map { $0._commandName }
            let subcommand = arguments.prefix { $0 != "--" }.first { names.contains($0) }
            let help = subcommand.map { "mediatool \($0) --help" } ?? "mediatool --help"
            Diagnostics.raw("mediatool: \(Diagnostics.printable(line)) (see '\(help)')\n")
            Glibc.exit(code.rawValue)
        }
    }

    static var subcommandNames: [String] { configuration.subcommands.map { $0._commandName } }

    /// The parser's message as one line: its first, and where that ends in a colon, the list of
    /// `- choice` lines after it (a value of six choices was refused with no choice named).
    static func oneLine(_ text: String) -> String {
        let lines = text.split(separator: "\n").map { String($0).trimmingSpaces }
        guard let first = lines.first else { return text }
        guard first.hasSuffix(":") else { return first }
        let items = lines.dropFirst().prefix { $0.hasPrefix("- ") }.map { String($0.dropFirst(2)) }
        return items.isEmpty ? first : first + " " + items.joined(separator: ", ")
    }

    /// The parser's "Unknown option '--bogus'. Did you mean '--jobs'?" without a guess that is no
    /// near spelling of what was typed (more than 2 letters changed, or a third of them): it sent
    /// users to an option unrelated to what they meant.
    static func withoutFarGuess(_ line: String) -> String {
        let parts = line.split(separator: "'", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[0] == "Unknown option ", parts[2] == ". Did you mean ", parts[4] == "?" else { return line }
        let typed = Array(parts[1].drop { $0 == "-" }), guess = Array(parts[3].drop { $0 == "-" })
        // Levenshtein's distance, a row at a time.
        var previous = Array(0...guess.count)
        for (row, letter) in typed.enumerated() {
            var current = [row + 1]
            for (column, other) in guess.enumerated() {
                current.append(min(previous[column + 1] + 1, current[column] + 1, previous[column] + (letter == other ? 0 : 1)))
            }
            previous = current
        }
        return previous[guess.count] <= max(2, typed.count / 3) ? line : "Unknown option '\(parts[1])'."
    }

    /// A first argument that names no subcommand is a usage error that says which were meant
    /// (`thumb` is not taken for two unexpected arguments), and so is `help` of one that does not exist.
    static func checkSubcommand(_ arguments: [String]) throws {
        guard var word = arguments.first, !word.hasPrefix("-") else { return }
        if word == "help" {
            guard arguments.count > 1 else { return }
            word = arguments[1]
        }
        guard !subcommandNames.contains(word) else { return }
        let guess = subcommandNames.first { $0.hasPrefix(word) || word.hasPrefix($0) }
        let hint = guess.map { "did you mean '\($0)'?" } ?? "the subcommands are \(subcommandNames.joined(separator: ", "))"
        throw ValidationError("no subcommand '\(word)': \(hint)")
    }

    /// The arguments as the parser can take them. Flags with an optional value (ArgumentParser has
    /// none): `--lossless=expand` is `--lossless-expand`, `--cover=prefer` is `--cover-prefer`. A
    /// negative number or rect after an option (`--width -5`, `--rect -5,0,10,10`, `-j -1`) is its
    /// value, refused or taken by the option's own check, not an unknown option: the parser reads
    /// any word starting with a dash as an option, and no input can be named so without `--` before
    /// it. This holds for every option, so no list of numeric options can fall behind the commands.
    /// Arguments after `--` are names, left as they are.
    static func spellingOptionalValues(_ arguments: [String]) -> [String] {
        let spellings = ["--lossless=expand": "--lossless-expand", "--cover=prefer": "--cover-prefer"]
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        var spelled: [String] = []
        var index = 0
        while index < end {
            let argument = arguments[index]
            // `-j4` is `-j 4`, as getopt takes it (the parser took it for an unknown option).
            if argument.hasPrefix("-j"), argument.count > 2, Int(argument.dropFirst(2)) != nil {
                spelled += ["-j", String(argument.dropFirst(2))]
                index += 1
                continue
            }
            if argument.hasPrefix("-"), !argument.contains("="), index + 1 < end, isNegativeValue(arguments[index + 1]) {
                spelled.append("\(argument)=\(arguments[index + 1])")
                index += 2
                continue
            }
            spelled.append(spellings[argument] ?? argument)
            index += 1
        }
        return spelled + arguments[end...]
    }

    /// `-5`, `-0.5e3`, `-5,0,10,10`: a negative number, or a list that starts with one.
    private static func isNegativeValue(_ word: String) -> Bool {
        word.count > 1 && word.first == "-" && Double(word.prefix { $0 != "," }) != nil
    }

    func run() throws {
        // Bare `mediatool` did nothing asked of it: a usage error, not success.
        guard version else { throw ValidationError("give a subcommand: \(Self.subcommandNames.joined(separator: ", "))") }
        print(ToolVersion.report)
    }
}

enum ToolVersion {
    static let number = "0.5.0"

    /// The tool's version, then each linked C library's, read from the libraries at run time.
    static var report: String {
        let libraries = FFmpegLibraries.versions + [PNGLibrary.version, JPEGLibrary.version, WebPLibrary.version, HEIFLibrary.version, TIFFLibrary.version,
                                                        LCMS2Library.version]
        // The cores it takes for the default --jobs and its threads: affinity and cgroup quota counted.
        return (["mediatool \(number)"] + libraries.map(\.description) + ["cores \(WorkerThreads.cores)", Confinement.summary])
            .joined(separator: "\n")
    }
}
