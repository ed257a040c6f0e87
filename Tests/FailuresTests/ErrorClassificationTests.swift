import Failures
import Foundation
import Testing

/// Every error type of the package says what kind of failure it is (`ClassifiedError`), so that
/// none reaches a library caller, an HTTP status or a report as a guess.
@Suite struct ErrorClassificationTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// The library's public error, whose cases are the kinds themselves.
    static let exempt: Set<String> = ["MediaError"]

    /// Each type declared as an `Error` in `Sources/`, by its name qualified with the types it is
    /// declared in ("ArrayPacking.Problem"), and whether a conformance to `ClassifiedError` is
    /// declared for it (on the type itself, or in an extension of that name).
    static func errorTypes() throws -> [(name: String, classified: Bool)] {
        let declaration = try Regex(#"^(\s*)(?:(?:public|internal|private|fileprivate|final|indirect)\s+)*(?:enum|struct|class|actor)\s+(\w+)(?:<[^>]*>)?\s*:\s*([^{]*)\{"#)
            .anchorsMatchLineEndings()
        let container = try Regex(#"^(\s*)(?:(?:public|internal|private|fileprivate|final|indirect)\s+)*(?:enum|struct|class|actor|extension)\s+([\w.]+)"#)
            .anchorsMatchLineEndings()
        let classifiedExtension = try Regex(#"^\s*(?:(?:public|internal|private|fileprivate)\s+)*extension\s+([\w.]+)\s*:[^{]*\bClassifiedError\b"#)
            .anchorsMatchLineEndings()
        var declared: [String: Bool] = [:]
        var extended: Set<String> = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            // The enclosing types of each line, by its indentation.
            var enclosing: [(indent: Int, name: String)] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let line = String(line)
                if let match = line.firstMatch(of: container) {
                    let indent = match.output[1].substring!.count
                    enclosing.removeAll { $0.indent >= indent }
                    let name = String(match.output[2].substring!)
                    if let found = line.firstMatch(of: declaration) {
                        let conformances = found.output[3].substring!.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                        if conformances.contains("Error") || conformances.contains("ClassifiedError") {
                            let qualified = (enclosing.map(\.name) + [name]).joined(separator: ".")
                            declared[qualified] = conformances.contains("ClassifiedError")
                        }
                    }
                    enclosing.append((indent, name))
                }
                if let match = line.firstMatch(of: classifiedExtension) {
                    extended.insert(String(match.output[1].substring!))
                }
            }
        }
        return declared.map { name, classified in
            (name, classified || extended.contains(name) || extended.contains(name.split(separator: ".").last.map(String.init) ?? name))
        }.sorted { $0.name < $1.name }
    }

    @Test func everyErrorTypeInSourcesSaysWhatKindOfFailureItIs() throws {
        let types = try Self.errorTypes()
        // The search finds what is there (40 error types when this test was written), not nothing.
        #expect(types.count >= 40, "found only \(types.map(\.name))")
        let unclassified = types.filter { !$0.classified && !Self.exempt.contains($0.name) }.map(\.name)
        #expect(unclassified.isEmpty, "error types without a FailureKind (conform them to ClassifiedError): \(unclassified)")
    }

    struct Unclassified: Error {}

    @Test func anErrorOfNoKindIsMediatoolsOwnFaultNotTheFiles() {
        #expect(FailureKind(classifying: Unclassified()) == .internalFailure)
        #expect(FailureKind(classifying: CancellationError()) == .cancelled)
    }

    /// The names travel between a worker and its parent: they are the protocol's, and stay.
    @Test func kindsKeepTheirWireNames() {
        #expect(FailureKind.allCases.map(\.rawValue) == [
            "unreadable", "unsupportedFormat", "damaged", "overLimit", "invalidRequest", "noVideo", "writeFailed", "cancelled",
            "deployment", "internal",
        ])
    }
}
