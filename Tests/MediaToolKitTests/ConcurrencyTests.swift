import Foundation
import MediaToolKit
import Testing
import TestSupport

@Suite struct ConcurrencyTests {
    /// Eight calls blocked reading (FIFOs whose writer writes nothing yet) hold eight threads of the
    /// library's pool (of eight, here): Swift's concurrency, whose pool has as many threads as cores,
    /// still runs other tasks. On Dispatch's global queue, which shares the pool's threads on Linux,
    /// they held it until Dispatch started more threads, a second or more later.
    @Test(.failsIfItHangs)
    func callsThatBlockLeaveTheConcurrencyPoolFree() async throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = 8
        var configuration = MediaConfiguration()
        configuration.pool = MediaThreadPool(threads: count)
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
                    _ = try await MediaProber(configuration: configuration).probe(.path(path))
                    return "probed"
                } catch {
                    return error.reason
                }
            })
        }
        // Each blocked on a thread the library started and named, none of the pool's (other tests'
        // threads may be reading pipes of their own meanwhile).
        try await ChildProcess.waitUntil("the calls block reading on threads of their own", deadline: KitFixtures.suiteWait) {
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

    /// 64 thumbnails of an 8 MP photo at once, as a server under load asks them: they decode on the
    /// pool's fixed threads (64 calls took 132 threads when each had one), their decoding shares
    /// one budget (64 x 1 GiB was allowed), and every result is the one a call alone gives.
    @Test(.failsIfItHangs)
    func manyCallsAtOnceShareThePoolAndTheBudget() async throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("photo.jpg").path
        let made = try ChildProcess.run("/usr/bin/python3", ["-c", """
            from PIL import Image
            im = Image.effect_mandelbrot((3456, 2304), (-2.2, -1.2, 1.0, 1.2), 60).convert('RGB')
            im.save('\(path)', quality=90)
            """])
        try #require(made.status == 0, "\(String(decoding: made.standardError, as: UTF8.self))")
        var configuration = MediaConfiguration()
        // Room for two decodes of the photo at once (about 60 MB each at this size), not three.
        configuration.budget = MediaMemoryBudget(bytes: 150_000_000)
        let generator = ThumbnailGenerator(configuration: configuration)
        let alone = try await generator.thumbnails(of: .path(path), fitting: [ThumbnailBounds(width: 256)]).images[0]
        let sampling = Task.detached { () -> Int in
            var most = 0
            while !Task.isCancelled {
                most = max(most, (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0)
                try? await Task.sleep(nanoseconds: 2_000_000)  // a sampling interval, not a wait for anything
            }
            return most
        }
        let results = try await withThrowingTaskGroup(of: Bitmap.self) { group in
            for _ in 0..<64 {
                group.addTask { try await generator.thumbnails(of: .path(path), fitting: [ThumbnailBounds(width: 256)]).images[0] }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        sampling.cancel()
        let threads = await sampling.value
        #expect(results.count == 64 && results.allSatisfy { $0 == alone })
        #expect(threads <= 32, "\(threads) threads in the process")
        #expect(threads > 0)
    }
}
