import Foundation
import Testing
import TestSupport

/// CI runs every test once, under the sanitizers, and plain only the suites whose cases that run
/// leaves out or samples (scripts/test's `plain_only`): a suite that starts to skip or sample
/// cases under the sanitizers must join that list, or those cases would run nowhere.
@Suite struct SanitizerSkipsTests {
    @Test func everySuiteTheSanitizedRunSkipsOrSamplesRunsPlainInCI() throws {
        let repository = ArchitectureDocTests.repository
        let script = try String(contentsOfFile: repository.appendingPathComponent("scripts/test").path, encoding: .utf8)
        let listing = try #require(script.split(separator: "\n").first { $0.hasPrefix("plain_only=") })
        // The names between the parentheses, each between bars.
        let plainOnly = "|" + (listing.split(separator: "(").dropFirst().first?.split(separator: ")").first.map(String.init) ?? "") + "|"
        let tests = repository.appendingPathComponent("Tests")
        let files = try #require(FileManager.default.enumerator(atPath: tests.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("TestSupport/") }
        var found: [String] = []
        for file in files where !file.hasSuffix("/SanitizerSkipsTests.swift") {
            let module = String(file.split(separator: "/")[0])
            var suite = ""
            // Each line that skips or samples, in the suite declared last before it.
            for line in try String(contentsOfFile: tests.appendingPathComponent(file).path, encoding: .utf8).split(separator: "\n") {
                if line.contains("@Suite") && line.contains(" struct ") {
                    suite = line.split(separator: " ").drop { $0 != "struct" }.dropFirst().first.map(String.init) ?? ""
                }
                guard line.contains("MEDIATOOL_SANITIZED") || line.contains("Sanitized.sample("), !found.contains("\(module).\(suite)") else { continue }
                found.append("\(module).\(suite)")
                let listed = listing.contains("\"\(module)\\.(")
                #expect(listed && plainOnly.contains("|\(suite)|"), "\(module).\(suite) is not in scripts/test's plain_only")
            }
        }
        // The check finds what it looks for: the suites that sample today.
        #expect(found.count >= 4, "\(found)")
    }
}
