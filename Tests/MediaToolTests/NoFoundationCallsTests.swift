import Foundation
import Testing
import TestSupport

/// The tool calls nothing of Foundation (FoundationEssentials alone): every run and every worker
/// would pay to load it and ICU. A module that imports Foundation makes it visible to the command
/// line's, whose `String` calls then bind to Foundation's overloads unseen (PictureDigests did).
@Suite struct NoFoundationCallsTests {
    static let nm = "/usr/bin/nm"

    @Test(.enabled(if: try Requirement.tool(nm)))
    func theToolCallsNoFoundation() throws {
        let run = try ChildProcess.run(Self.nm, ["-D", "--undefined-only", ToolRun.executable.path])
        #expect(run.status == 0)
        // Foundation's own symbols are mangled with its name, 10Foundation; FoundationEssentials' with 18.
        let calls = String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").filter { $0.contains("10Foundation") }
        #expect(calls.isEmpty, "\(calls.prefix(3))")
    }
}
