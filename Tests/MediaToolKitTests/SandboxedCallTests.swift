import Foundation
@testable import MediaToolKit
import Testing
import TestSupport

/// The library's calls decode in confined `mediatool` workers by default: what they give is what
/// in-process work gives, a decoder's crash or hang costs the call an error, and a cancelled task
/// ends its worker at once.
@Suite struct SandboxedCallTests {
    static func configuration(_ sandbox: MediaSandbox, trigger: String? = nil, timeout: Double = 120) -> MediaConfiguration {
        var configuration = MediaConfiguration()
        configuration.sandbox = sandbox
        configuration.timeout = timeout
        // Threads and memory of this suite's own: its calls that hang or are cancelled would
        // otherwise wait behind other suites' (64 thumbnails of an 8 MP photo share the process's),
        // and what they prove about time would be about that queue.
        configuration.pool = pool
        configuration.budget = budget
        if let trigger { configuration.workerEnvironment = ["MEDIATOOL_TEST_WORKER_TRIGGER=\(trigger)"] }
        return configuration
    }

    static let pool = MediaThreadPool(threads: 4)
    static let budget = MediaMemoryBudget(bytes: MediaConfiguration().maxMemory)

    static let inProcess = configuration(.inProcess)
    static let sandboxed = configuration(.automatic)

    /// Pictures of every kind of colour description (an ICC profile, 16-bit grey, orientation)
    /// and HDR frames kept as HDR (16-bit samples and their code points).
    @Test(arguments: ["pictures/icc.jpg", "pictures/gray16.png", "pictures/orientation6.jpg", "pictures/hp-srgb.jpg",
                      "probe/phone-hlg-portrait.mov", "video/quadrants-orientation6.mp4"])
    func thumbnailsAreThoseInProcessWorkGives(fixture: String) async throws {
        let sizes = [ThumbnailBounds.original, ThumbnailBounds(width: 32)]
        var generators = [ThumbnailGenerator(configuration: Self.inProcess), ThumbnailGenerator(configuration: Self.sandboxed)]
        for index in generators.indices { generators[index].videoTime = .seconds(0.5) }
        let here = try await generators[0].thumbnails(of: KitFixtures.source(fixture), fitting: sizes)
        let there = try await generators[1].thumbnails(of: KitFixtures.source(fixture), fitting: sizes)
        #expect(here.images == there.images)
        #expect(here.images.map(\.iccProfile) == there.images.map(\.iccProfile))
        #expect(here.seconds == there.seconds && here.orientation == there.orientation && here.warnings == there.warnings)
        // The same bytes once encoded, colour chunks included.
        #expect(try await here.images[0].encoded(as: .png) == there.images[0].encoded(as: .png))
    }

    @Test func framesCropsAndProbesAreThoseInProcessWorkGives() async throws {
        var results: [[String]] = []
        for configuration in [Self.inProcess, Self.sandboxed] {
            var generator = VideoFrameGenerator(KitFixtures.source("probe/phone-hlg-portrait.mov"), configuration: configuration)
            generator.toneMapsHDR = false
            var said: [String] = []
            for try await frame in generator.images(at: [0.9, 0.1, 0.5]) {
                said.append("\(frame.requestedTime) \(frame.actualTime) \(frame.image.width)x\(frame.image.height) \(frame.image.bitsPerSample) \(frame.image.pixels.hashValue)")
            }
            let source = try await ImageSource(KitFixtures.source("pictures/orientation6.jpg"), configuration: configuration)
            said.append("\(source.format) \(source.storedWidth)x\(source.storedHeight) \(source.orientation)")
            let crop = try await source.cropping(to: ImageRect(x: 3, y: 5, width: 20, height: 17))
            said.append("\(crop.width)x\(crop.height) \(crop.pixels)")
            let report = try await MediaProber(configuration: configuration).probe(KitFixtures.source("probe/phone-hlg-portrait.mov"))
            said.append("\(report)")
            results.append(said)
        }
        #expect(results[0] == results[1])
        #expect(results[0].count == 6)
    }

    /// One source's calls one after another each read the whole file: the descriptor a worker is
    /// sent has an offset of its own, not one the last worker left mid-file.
    @Test(arguments: ["pictures/orientation6.jpg", "pictures/gray16.png", "pictures/icc.jpg"])
    func aSourcesCallsEachReadTheWholeFile(fixture: String) async throws {
        let alone = try await ImageSource(KitFixtures.source(fixture), configuration: Self.inProcess).image()
        let source = try await ImageSource(KitFixtures.source(fixture), configuration: Self.sandboxed)
        for _ in 0..<3 {
            #expect(try await source.image() == alone)
            #expect(try await source.thumbnails(fitting: [.original, ThumbnailBounds(width: 20)])[0] == alone)
        }
    }

    /// A decoder that crashes costs its call an error; the next call gets a new worker.
    @Test func aCrashIsTheCallsErrorNotTheProcesss() async throws {
        let configuration = Self.configuration(.automatic, trigger: "crash:.crash")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: RepositoryFixtures.path("pictures/orientation6.jpg")))
        let generator = ThumbnailGenerator(configuration: configuration)
        await #expect {
            _ = try await generator.thumbnails(of: .data(bytes, name: "upload.crash"), fitting: [.original])
        } throws: { error in
            guard case MediaError.damaged(_, let reason)? = error as? MediaError else { return false }
            return reason.contains("the decoder crashed (SIGSEGV")
        }
        #expect(try await generator.thumbnails(of: .data(bytes, name: "upload.jpg"), fitting: [.original]).images[0].width == KitFixtures.uprightWidth)
    }

    /// A decode past the deadline is ended, and the error names the setting in the API's words.
    @Test(.failsIfItHangs)
    func aHangEndsAtTheDeadline() async throws {
        let configuration = Self.configuration(.automatic, trigger: "hang:.hang", timeout: 1)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: RepositoryFixtures.path("pictures/orientation6.jpg")))
        await #expect(throws: MediaError.overLimit(file: "upload.hang", reason: "took longer than timeout 1 s; the file was refused")) {
            _ = try await MediaProber(configuration: configuration).probe(.data(bytes, name: "upload.hang"))
        }
    }

    /// Cancelling the task ends the worker's decode at once, long before its deadline.
    @Test(.failsIfItHangs)
    func cancellingTheTaskEndsTheWorker() async throws {
        let configuration = Self.configuration(.automatic, trigger: "hang:.stuck", timeout: 600)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: RepositoryFixtures.path("pictures/orientation6.jpg")))
        let call = Task {
            try await ImageSource(.data(bytes, name: "upload.stuck"), configuration: configuration).width
        }
        // The worker is in the trigger's pause() (other tests' workers may be in theirs).
        var worker: Int32 = 0
        try await ChildProcess.waitUntil("a worker hangs", deadline: KitFixtures.suiteWait) {
            for child in Self.children() where Self.wchan(child).contains("pause") && Self.environment(child).contains("hang:.stuck") {
                worker = child
                return true
            }
            return false
        }
        call.cancel()
        await #expect(throws: MediaError.cancelled(file: "upload.stuck")) { _ = try await call.value }
        // Killed and reaped: no longer this process's child.
        #expect(!Self.children().contains(worker))
    }

    /// A FIFO whose writer never stops costs the call its timeout, not the stream's size limit.
    @Test(.failsIfItHangs)
    func aStreamThatNeverEndsEndsAtTheTimeout() async throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("endless").path
        try #require(mkfifo(path, 0o600) == 0)
        let writer = open(path, O_RDWR | O_CLOEXEC)
        try #require(writer >= 0)
        defer { close(writer) }
        // The start of a JPEG, then nothing more: the call waits on a stream that stays open.
        let start = try RepositoryFixtures.bytes("pictures/orientation6.jpg").prefix(200)
        try #require(start.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == 200)
        await #expect(throws: MediaError.overLimit(file: path, reason: "the stream had not ended after 1 s (timeout)")) {
            _ = try await MediaProber(configuration: Self.configuration(.automatic, timeout: 1)).probe(.path(path))
        }
    }

    @Test func withoutAWorkerTheCallSaysHowToGetOne() async throws {
        let configuration = Self.configuration(.worker("/nonexistent/mediatool"))
        await #expect {
            _ = try await MediaProber(configuration: configuration).probe(KitFixtures.source("pictures/orientation6.jpg"))
        } throws: { error in
            guard case MediaError.deployment(_, let reason)? = error as? MediaError else { return false }
            return reason.contains("/nonexistent/mediatool") && reason.contains(".inProcess") && reason.contains("PATH")
        }
    }

    static func children() -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/self/task/\(task)/children", encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int32($0) }
        }
    }

    static func environment(_ pid: Int32) -> String {
        (try? String(decoding: Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ")), as: UTF8.self)) ?? ""
    }

    /// Where each of the process's threads sleeps, one a line (a worker's jobs run on its second).
    static func wchan(_ pid: Int32) -> String {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.map { (try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/wchan", encoding: .utf8)) ?? "" }.joined(separator: "\n")
    }
}
