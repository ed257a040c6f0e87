import Testing

@Suite struct RootCommandTests {
    /// The versions come from the linked libraries at run time: names fixed, numbers dotted.
    @Test func versionNamesTheToolAndEachLinkedLibrary() throws {
        let run = try ToolRun.run(["--version"])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.map { $0.split(separator: " ").first.map(String.init) ?? "" }
            == ["mediatool", "libavformat", "libavcodec", "libavutil", "libswscale", "libpng", "libjpeg-turbo", "libwebp", "libheif", "libtiff"])
        for line in lines {
            let version = line.split(separator: " ").last ?? ""
            #expect(version.split(separator: ".").count == 3 && version.allSatisfy { $0.isNumber || $0 == "." }, "\(line)")
        }
    }

    @Test(arguments: ["dump-doubles", "pack-doubles"])
    func helpShowsExamplesAndExitStatus(subcommand: String) throws {
        let run = try ToolRun.run([subcommand, "--help"])
        #expect(run.status == 0)
        #expect(run.output.contains("Examples:\n  mediatool \(subcommand) "))
        #expect(run.output.contains("Exit status: 0"))
    }

    @Test func anUnknownSubcommandIsAUsageError() throws {
        #expect(try ToolRun.run(["resize", "x.png"]).status == 64)
    }
}
