import ArgumentParser
import Glibc
import FFmpeg
import HEIFCodec
import TIFFCodec
import JPEGCodec
import WebPCodec
import WorkerPool
import FileIO
import PNGCodec

@main
struct MediaTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mediatool",
        abstract: "Batch media and binary processing: video thumbnails, orientation-aware crops, arrays of doubles.",
        discussion: """
            Every subcommand takes many inputs. Exit status: 0 when every input succeeded, 1 when any \
            input failed (the others are still processed), 64 for usage errors. Errors are one line \
            on standard error: 'mediatool: <input>: <what went wrong>'.
            """,
        subcommands: [Thumbnail.self, Crop.self, DumpDoubles.self, PackDoubles.self]
    )

    // Not CommandConfiguration's version: that string is built at every start, and reading FFmpeg's
    // versions loads FFmpeg, which only video work should pay for.
    @Flag(help: "Show the version of mediatool and of the libraries it runs with.")
    var version = false

    /// The arguments as the bytes they are: a file name need not be UTF-8 (see `PathBytes`), and
    /// CommandLine.arguments would have replaced what is not.
    static func main() {
        let arguments = (1..<Int(CommandLine.argc)).map { index in
            let argument = CommandLine.unsafeArgv[index]!
            return PathBytes.string(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
        main(spellingOptionalValues(arguments))
    }

    /// Flags with an optional value, as the parser knows them (ArgumentParser has none): `--lossless=expand`
    /// is `--lossless-expand`, `--cover=prefer` is `--cover-prefer`. Arguments after `--` are names, left as they are.
    static func spellingOptionalValues(_ arguments: [String]) -> [String] {
        let spellings = ["--lossless=expand": "--lossless-expand", "--cover=prefer": "--cover-prefer"]
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        return arguments[..<end].map { spellings[$0] ?? $0 } + arguments[end...]
    }

    func run() throws {
        guard version else { throw CleanExit.helpRequest(self) }
        print(ToolVersion.report)
    }
}

enum ToolVersion {
    static let number = "0.1.0"

    /// The tool's version, then each linked C library's, read from the libraries at run time.
    static var report: String {
        let libraries = FFmpegLibraries.versions + [PNGLibrary.version, JPEGLibrary.version, WebPLibrary.version, HEIFLibrary.version, TIFFLibrary.version]
        // The cores it takes for the default --jobs and its threads: affinity and cgroup quota counted.
        return (["mediatool \(number)"] + libraries.map(\.description) + ["cores \(WorkerThreads.cores)"]).joined(separator: "\n")
    }
}
