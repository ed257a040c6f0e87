import Foundation
import MediaToolKit
import Testing
import TestSupport

@Suite struct ConcurrencyTests {
    /// Eight calls blocked reading (FIFOs whose writer writes nothing yet) hold eight threads of their
    /// own: Swift's concurrency, whose pool has as many threads as cores, still runs other tasks. On
    /// Dispatch's global queue, which shares the pool's threads on Linux, they held it until Dispatch
    /// started more threads, a second or more later.
    @Test(.timeLimit(.minutes(1)))
    func callsThatBlockLeaveTheConcurrencyPoolFree() async throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = 8
        var writers: [Int32] = []
        var probes: [Task<String, Never>] = []
        for index in 0..<count {
            let path = folder.appendingPathComponent("upload-\(index)").path
            try #require(mkfifo(path, 0o600) == 0)
            // Held open, writing nothing: the call's reads wait.
            let writer = open(path, O_RDWR | O_CLOEXEC)
            try #require(writer >= 0)
            writers.append(writer)
            probes.append(Task {
                do throws(MediaError) {
                    _ = try await MediaProber().probe(.path(path))
                    return "probed"
                } catch {
                    return error.reason
                }
            })
        }
        // Each blocked on a thread the library started and named, none of the pool's (other tests'
        // threads may be reading pipes of their own meanwhile).
        try ChildProcess.waitUntil("the calls block reading on threads of their own", deadline: 30) {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return tasks.filter { task in
                ChildProcess.isWaitingForInput(wchan: (try? String(contentsOfFile: "/proc/self/task/\(task)/wchan", encoding: .utf8)) ?? "")
                    && (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) == "MediaToolKit\n"
            }.count == count
        }
        // Tasks that need the pool's threads, while every call is blocked.
        let sum = await withTaskGroup(of: Int.self) { group in
            for value in 1...16 { group.addTask { await Task.yield(); return value } }
            return await group.reduce(0, +)
        }
        #expect(sum == 136)
        for writer in writers { close(writer) }
        for probe in probes { let said = await probe.value; #expect(said == "an empty file") }
    }

    /// One `.data` source is copied once, and calls read the copy side by side.
    @Test func oneUploadServesManyCallsAtOnce() async throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: RepositoryFixtures.path("video/counter.mp4")))
        let upload = MediaSource.data(data, name: "upload.mp4")
        let frames = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for index in 0..<6 {
                group.addTask {
                    let frame = try await VideoFrameGenerator(upload).image(at: Double(index) * 0.4)
                    return (index, KitFixtures.frameNumber(frame.image))
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(frames == [0: 0, 1: 10, 2: 20, 3: 30, 4: 40, 5: 50])
        #expect(try await MediaProber().probe(upload).frames == 60)
    }
}
