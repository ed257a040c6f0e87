import Foundation
import Glibc
import Testing
import TestSupport

/// --max-memory was each sandboxed worker's, not the run's: two large progressive
/// JPEGs with `-j 2` took about twice what one takes (1379 MiB at --max-memory 700M). The workers
/// now reserve from the parent's one budget, so that two inputs that each need most of it take
/// their turns. Measured as the summed resident memory of mediatool and its workers, sampled.
@Suite struct SharedMemoryBudgetTests {
    static let python = "/usr/bin/python3"

    /// The peak of the summed VmRSS (KiB) of the process and its children while `arguments` run.
    static func peak(_ arguments: [String], in folder: URL) throws -> (status: Int32, kib: Int) {
        var peak = 0
        let run = try ChildProcess.run(ToolRun.executable.path, arguments, directory: folder) { process in
            let pid = process.processIdentifier
            while process.isRunning {
                peak = max(peak, Self.residentKiB(of: [pid] + Self.children(of: pid)))
                usleep(2_000)  // a sampling interval, not a wait for anything
            }
        }
        return (run.status, peak)
    }

    static func children(of pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task -> [Int32] in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").compactMap { Int32($0) }
        }
    }

    static func residentKiB(of pids: [Int32]) -> Int {
        pids.reduce(0) { sum, pid in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            return sum + (line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) } ?? 0)
        }
    }

    // AddressSanitizer keeps freed memory in quarantine: peaks there say nothing of the budget.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MEDIATOOL_SANITIZED"] == nil))
    func twoWorkersShareTheRunsBudget() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Two 8000x8000 progressive JPEGs: about 200 MB of coefficients each, of a 300M budget.
        let made = try ChildProcess.run(Self.python, ["-c", """
            from PIL import Image
            im = Image.new('RGB', (8000, 8000), (120, 60, 200))
            im.save('a.jpg', progressive=True, quality=50)
            im.save('b.jpg', progressive=True, quality=50)
            """], directory: folder)
        try #require(made.status == 0, "\(String(decoding: made.standardError, as: UTF8.self))")
        let common = ["thumbnail", "--max-memory", "300M", "--size", "64", "--out-dir", "out"]
        let one = try Self.peak(common + ["-j", "1", "a.jpg"], in: folder)
        try #require(one.status == 0)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("out"))
        let two = try Self.peak(common + ["-j", "2", "a.jpg", "b.jpg"], in: folder)
        #expect(two.status == 0)
        // One at a time: about what one takes (measured: 1.1 times), where each its own took 1.65 times.
        #expect(Double(two.kib) < 1.35 * Double(one.kib), "one input \(one.kib) KiB, two at once \(two.kib) KiB")
    }
}
