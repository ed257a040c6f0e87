import Foundation
import Testing

@Suite struct RootCommandTests {
    /// The versions come from the linked libraries at run time: names fixed, numbers dotted.
    @Test func versionNamesTheToolAndEachLinkedLibrary() throws {
        let run = try ToolRun.run(["--version"])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.map { $0.split(separator: " ").first.map(String.init) ?? "" }
            == ["mediatool", "libavformat", "libavcodec", "libavutil", "libswscale", "libpng", "libjpeg-turbo", "libwebp", "libheif", "libtiff", "lcms2", "cores", "sandbox:"])
        for line in lines.dropLast(2) {
            let version = line.split(separator: " ").last ?? ""
            #expect(version.split(separator: ".").count == 3 && version.allSatisfy { $0.isNumber || $0 == "." }, "\(line)")
        }
    }

    /// The cores counted are the ones the process may use: its affinity (taskset, Slurm),
    /// capped by its cgroup's CPU quota, rounded up (a container limited to 1.5 CPUs gets 2).
    @Test(arguments: [(["taskset", "-c", "0"], [String: String](), "cores 1"),
                      ([], ["MEDIATOOL_CGROUP_CPU_MAX": "50000 100000"], "cores 1"),
                      (["taskset", "-c", "0"], ["MEDIATOOL_CGROUP_CPU_MAX": "max 100000"], "cores 1")])
    func coresFollowAffinityAndQuota(launcher: [String], quota: [String: String], expected: String) throws {
        var environment: [String: String] = [:]
        let scratch = try ScratchOutput("cpu.max")
        if let text = quota["MEDIATOOL_CGROUP_CPU_MAX"] {
            try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: scratch.path))
            environment["MEDIATOOL_CGROUP_CPU_MAX"] = scratch.path
        }
        let run = try ToolRun.run(["--version"], launcher: launcher, environment: environment)
        #expect(run.output.split(separator: "\n").first { $0.hasPrefix("cores ") }.map(String.init) == expected)
    }

    @Test(arguments: ["dump-doubles", "pack-doubles"])
    func helpShowsExamplesAndExitStatus(subcommand: String) throws {
        let run = try ToolRun.run([subcommand, "--help"])
        #expect(run.status == 0)
        #expect(run.output.contains("Examples:\n  mediatool \(subcommand) "))
        #expect(run.output.contains("Exit status: 0"))
    }

    /// In an 80-column terminal no example is cut in the middle of its command.
    @Test(arguments: ["thumbnail", "crop", "dump-doubles", "pack-doubles"])
    func examplesFitEightyColumns(subcommand: String) throws {
        let run = try ToolRun.run([subcommand, "--help"], environment: ["COLUMNS": "80"])
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "Examples:"))
        let examples = lines[(start + 1)...].prefix { !$0.isEmpty }
        #expect(examples.count >= 2)
        for line in examples { #expect(line.hasPrefix("  "), "'\(line)' continues the line before it") }
    }

    @Test func anUnknownSubcommandIsAUsageError() throws {
        #expect(try ToolRun.run(["resize", "x.png"]).status == 64)
    }
}

/// A usage error is one line like every other error, naming where help is, exit 64.
@Suite struct UsageErrorTests {
    @Test(arguments: [
        (["crop", "--rect", "0,0,-1,2", "x.png"], "mediatool: --rect takes X,Y,W,H with W and H above 0, e.g. 100,200,300,400, not '0,0,-1,2'. (see 'mediatool crop --help')"),
        (["thumbnail", "--width", "-5", "x.mp4"], "mediatool: --width must be 1 or more. (see 'mediatool thumbnail --help')"),
        (["thumbnail", "--width", "x.mp4"], "mediatool: The value 'x.mp4' is invalid for '--width <width>' (see 'mediatool thumbnail --help')"),
        (["thumbnail", "--at", "1x", "x.mp4"], "mediatool: The value '1x' is invalid for '--at <time>': it takes seconds (35.2), a timestamp (1:02.5), a percentage (10%) or auto (see 'mediatool thumbnail --help')"),
        (["frobnicate"], "mediatool: no subcommand 'frobnicate': the subcommands are thumbnail, storyboard, preview, transcode, crop, strip, probe, ingest, dump-doubles, pack-doubles, dump-array, pack-array (see 'mediatool --help')"),
    ])
    func oneLine(arguments: [String], line: String) throws {
        let run = try ToolRun.run(arguments)
        #expect(run.status == 64)
        #expect(run.errorLines == [line])
    }
}

/// Rough edges a new user hits.
@Suite struct RoughEdgeTests {
    @Test func bareMediatoolIsAUsageError() throws {
        let run = try ToolRun.run([])
        #expect(run.status == 64)
        #expect(run.errorLines == ["mediatool: give a subcommand: thumbnail, storyboard, preview, transcode, crop, strip, probe, ingest, dump-doubles, pack-doubles, dump-array, pack-array (see 'mediatool --help')"])
    }

    @Test func aMissingOutputFolderIsSaidAsSuch() throws {
        let scratch = try ScratchOutput("unused")
        let source = Fixture.path("pictures/orientation1.png")
        let output = scratch.folder.appendingPathComponent("nodir/x.png").path
        let run = try ToolRun.run(["crop", "--rect", "0,0,8,8", source, "-o", output])
        #expect(run.status == 1)
        #expect(run.errorLines == ["mediatool: \(source): cannot write \(output): its folder \(scratch.folder.path)/nodir/ does not exist"])
    }

    @Test func dumpDoublesQuietLeavesOutTheSummary() throws {
        let files = [Fixture.path("doubles/known.bin"), Fixture.path("doubles/values.bin")]
        let loud = try ToolRun.run(["dump-doubles"] + files)
        #expect(loud.errorLines.count == 1 && loud.errorLines[0].hasPrefix("mediatool: summary: 2 ok"))
        let quiet = try ToolRun.run(["dump-doubles", "--quiet"] + files)
        #expect(quiet.status == 0 && quiet.errorLines == [])
    }
}

/// Bash completion offers file names for inputs, -o and --files-from, folders for --out-dir.
@Suite struct CompletionTests {
    @Test func bashCompletesFilesAndFolders() throws {
        let script = try ToolRun.run(["--generate-completion-script", "bash"]).output
        let crop = try #require(script.components(separatedBy: "_mediatool_crop() {").last?.components(separatedBy: "\n}\n").first)
        #expect(crop.contains("'-o'|'--output')\n        __mediatool_add_completions -f"))
        #expect(crop.contains("'--out-dir')\n        __mediatool_add_completions -d"))
        #expect(crop.contains("'--files-from')\n        __mediatool_add_completions -f"))
        #expect(crop.contains("case \"${positional_number}\" in\n    *)\n        __mediatool_add_completions -f"))
    }

    /// An example is a command to copy: one wrapped at 80 columns breaks in the middle of it.
    @Test(arguments: ["thumbnail", "storyboard", "preview", "crop", "dump-doubles", "pack-doubles", "dump-array", "pack-array"])
    func examplesFitEightyColumns(subcommand: String) throws {
        let run = try ToolRun.run([subcommand, "--help"], environment: ["COLUMNS": "300"])
        #expect(run.status == 0)
        let examples = run.output.split(separator: "\n").filter { $0.hasPrefix("  mediatool ") }
        #expect(!examples.isEmpty)
        for example in examples { #expect(example.count < 80, "\(example)") }
    }

    /// A negative value after any option is the option's value, checked by the option itself: the
    /// hand-kept list of numeric options lacked --stride and --columns ("Missing value").
    @Test(arguments: [(["dump-array", "--type", "f64", "--stride", "-5", "x.bin"], "--stride must be 1 or more."),
                      (["dump-array", "--type", "f64", "--columns", "-2", "x.bin"], "--columns must be 1 or more."),
                      (["crop", "-j", "-3", "--rect", "0,0,1,1", "x.png"], "--jobs must be 1 or more."),
                      (["thumbnail", "--keyframe", "-5"], "The option '--keyframe' does not take any value, but '-5' was specified.")])
    func aNegativeValueGoesToItsOption(arguments: [String], message: String) throws {
        let run = try ToolRun.run(arguments)
        #expect(run.status == 64)
        #expect(run.errorLines == ["mediatool: \(message) (see 'mediatool \(arguments[0]) --help')"])
    }
}
