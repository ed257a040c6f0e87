import Foundation
import MediaToolKit
import Testing
import TestSupport

/// The library's `ProbeReport` against `docs/probe-schema.json`, which `ProbeSchemaTests` makes
/// from the command line's line: a line with every field set decodes, and encodes again to the
/// same members, so no field is missing from the type, named otherwise or of another type.
@Suite struct ProbeReportSchemaTests {
    /// A value of the schema's `type`: "string", "integer", "number", "boolean", "array of T",
    /// or "{name: T, ...}".
    static func example(of type: Substring) -> Any {
        if type.hasPrefix("array of ") { return [example(of: type.dropFirst("array of ".count))] }
        if type.hasPrefix("{") {
            var members: [String: Any] = [:]
            for member in type.dropFirst().dropLast().split(separator: ",") {
                let parts = member.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                members[parts[0]] = example(of: Substring(parts[1]))
            }
            return members
        }
        switch type {
        case "integer": return 7
        case "number": return 1.5
        case "boolean": return true
        default: return "text"
        }
    }

    @Test func theReportHasEveryFieldOfTheLineAndNoOther() throws {
        let path = RepositoryFixtures.root.deletingLastPathComponent().appendingPathComponent("docs/probe-schema.json")
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: [[String: Any]]])
        let fields = try #require(schema["fields"])
        var line: [String: Any] = [:]
        for field in fields {
            let name = try #require(field["name"] as? String)
            line[name] = Self.example(of: Substring(try #require(field["type"] as? String)))
        }
        // A kind the type knows.
        line["kind"] = "video"
        let report = try JSONDecoder().decode(ProbeReport.self, from: try JSONSerialization.data(withJSONObject: line))
        let again = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        #expect(Set(again.keys) == Set(line.keys), "only in the schema: \(Set(line.keys).subtracting(again.keys).sorted()); only in the type: \(Set(again.keys).subtracting(line.keys).sorted())")
        let sorted = { (value: Any) in String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self) }
        #expect(try sorted(again) == sorted(line))
    }
}
