import Foundation
import Testing
import TestSupport

/// One concurrency vocabulary, kept: threads are started in one file (`WorkerPool/WorkerThreads`),
/// the blocking locks are `Synchronization`'s `Mutex` and `Atomic` and `WorkerPool`'s
/// `ConditionLock` (with `Permits` and `BoundedChannel` made of it), and the few types the compiler
/// is told to trust (`@unchecked Sendable`) are at most ten, each saying why it may be trusted.
/// Each rule was broken once: five lock kinds, threads started in five files, 22 unchecked types.
@Suite struct ConcurrencyVocabularyTests {
    /// Every Swift source of `Sources/`, by its path from the repository, with its lines.
    static func sources() throws -> [(path: String, lines: [Substring])] {
        let root = ArchitectureDocTests.repository
        let sources = root.appendingPathComponent("Sources")
        let paths = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
        return try paths.filter { $0.hasSuffix(".swift") }.sorted().map { path in
            let text = try String(contentsOfFile: sources.appendingPathComponent(path).path, encoding: .utf8)
            return ("Sources/" + path, text.split(separator: "\n", omittingEmptySubsequences: false))
        }
    }

    /// Lines of code (comments left out) that use one of `names` (as a whole word, and what
    /// follows it as given), outside `allowedIn`.
    static func uses(of names: [String], allowedIn: String) throws -> [String] {
        let pattern = try Regex("(^|[^A-Za-z0-9_])(" + names.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|") + ")")
        return try sources().filter { $0.path != allowedIn }.flatMap { source in
            source.lines.enumerated().filter { _, line in
                let code = line.trimmingCharacters(in: .whitespaces)
                return !code.hasPrefix("//") && code.contains(pattern)
            }.map { "\(source.path):\($0.offset + 1): \($0.element.trimmingCharacters(in: .whitespaces))" }
        }
    }

    @Test func threadsAreStartedInOneFile() throws {
        let starts = try Self.uses(of: ["pthread_create", "Thread {", "Thread(block", "detachNewThread", "Thread("],
                                   allowedIn: "Sources/WorkerPool/WorkerThreads.swift")
        #expect(starts.isEmpty, "threads started outside WorkerPool/WorkerThreads.swift:\n\(starts.joined(separator: "\n"))")
    }

    @Test func theBlockingLocksAreMutexAtomicAndConditionLock() throws {
        let others = try Self.uses(of: ["DispatchSemaphore", "NSLock", "NSCondition", "NSRecursiveLock", "pthread_mutex_", "pthread_cond_",
                                        "os_unfair_lock", "pthread_rwlock", "DispatchQueue(", "DispatchGroup"],
                                   allowedIn: "Sources/WorkerPool/ConditionLock.swift")
        #expect(others.isEmpty, "locks of other kinds:\n\(others.joined(separator: "\n"))")
    }

    @Test func atMostTenTypesAreTrustedAndEachSaysWhy() throws {
        var trusted: [String] = []
        for source in try Self.sources() {
            for (index, line) in source.lines.enumerated() where line.contains("@unchecked Sendable") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                trusted.append("\(source.path):\(index + 1)")
                // The comment just above the declaration (its attributes passed over) says why.
                let above = source.lines[..<index].reversed().prefix { $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") || $0.trimmingCharacters(in: .whitespaces).hasPrefix("@") }
                #expect(above.contains { $0.contains("Unchecked Sendable") }, "\(source.path):\(index + 1) says not why it may be trusted (\"Unchecked Sendable: ...\" in its comment)")
            }
        }
        #expect(trusted.count <= 10, "\(trusted.count) unchecked Sendable types:\n\(trusted.joined(separator: "\n"))")
        #expect(trusted.count > 0)
    }
}
