import Foundation
import Testing
import TestSupport

/// docs/architecture.md is a newcomer's map: it claimed more than the code did once. What can be
/// checked mechanically is: every Swift module is on it, and every source file it names is there.
@Suite struct ArchitectureDocTests {
    static let repository = RepositoryFixtures.root.deletingLastPathComponent()

    static func document() throws -> String {
        try String(contentsOfFile: repository.appendingPathComponent("docs/architecture.md").path, encoding: .utf8)
    }

    static func modules() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("Sources").path).sorted()
    }

    @Test func everySwiftModuleIsOnTheMap() throws {
        let document = try Self.document()
        // The C targets are named by kind, not one by one.
        let swiftModules = try Self.modules().filter { !$0.hasPrefix("C") || $0 == "ColourManagement" }
        let missing = swiftModules.filter { !document.contains($0) }
        #expect(missing.isEmpty, "not in docs/architecture.md: \(missing)")
    }

    /// A `Module/File` in backticks names a file of that module (`Sandbox/JobExchange.swift`,
    /// `Batch/OutputPlan`).
    @Test func everySourceFileNamedIsThere() throws {
        let document = try Self.document()
        let modules = Set(try Self.modules())
        let quoted = document.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        var named = 0
        for token in quoted {
            let parts = token.split(separator: "/")
            guard parts.count == 2, modules.contains(String(parts[0])), let name = parts[1].split(separator: " ").first else { continue }
            named += 1
            let base = Self.repository.appendingPathComponent("Sources/\(parts[0])/\(name)").path
            let exists = FileManager.default.fileExists(atPath: base) || FileManager.default.fileExists(atPath: base + ".swift")
            #expect(exists, "docs/architecture.md names \(token), which is not in Sources/")
        }
        #expect(named >= 5)
    }
}
