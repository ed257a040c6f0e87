import Foundation
@testable import MediaToolKit
import Testing
import TestSupport

/// A worker taken over by a file answers what it likes: the library trusts nothing it says, waits
/// for it no longer than the call's timeout, and tells it none of the server's secrets. The worker
/// is `Scripts/lying_worker.py`, which speaks the protocol and lies as told.
@Suite struct LyingWorkerTests {
    static let worker = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/lying_worker.py").path

    static func configuration(_ mode: String, timeout: Double = 2, maxMemory: Int = 64 << 20) -> MediaConfiguration {
        var configuration = MediaConfiguration(maxMemory: maxMemory)
        configuration.sandbox = .worker(worker)
        configuration.timeout = timeout
        configuration.workerEnvironment = ["LYING_WORKER=\(mode)"]
        // Threads of this suite's own, as `SandboxedCallTests` has: not a queue behind other suites'.
        configuration.pool = SandboxedCallTests.pool
        return configuration
    }

    static let photo = KitFixtures.source("pictures/orientation6.jpg")

    /// A worker that holds the whole budget and asks for more is ended once nothing was given back
    /// for its timeout, and what it held is given back to the calls that share the budget.
    @Test(.failsIfItHangs)
    func aWorkerThatAsksForMemoryForeverIsEnded() async throws {
        let maxMemory = 48 << 20 | 4096  // a budget of its own, shared with the in-process call below
        await #expect {
            _ = try await ThumbnailGenerator(configuration: Self.configuration("hog", maxMemory: maxMemory))
                .thumbnails(of: Self.photo, fitting: [.original])
        } throws: { error in
            guard case MediaError.overLimit(_, let reason)? = error as? MediaError else { return false }
            return reason.contains("for memory of the run's budget")
        }
        var trusted = MediaConfiguration(maxMemory: maxMemory)
        trusted.sandbox = .inProcess
        #expect(try await ThumbnailGenerator(configuration: trusted).thumbnails(of: Self.photo, fitting: [.original]).images.count == 1)
    }

    /// A worker that never says it is ready costs its call the start's wait, and a cancelled call
    /// nothing more.
    @Test(.failsIfItHangs)
    func aWorkerThatNeverStartsIsLeftAtOnceWhenTheCallIsCancelled() async throws {
        let call = Task { try await MediaProber(configuration: Self.configuration("silent", timeout: 600)).probe(Self.photo) }
        // Waits for the worker to be started (its process is this one's child), then cancels.
        try await ChildProcess.waitUntil("the worker to start", deadline: KitFixtures.suiteWait) {
            SandboxedCallTests.children().contains { SandboxedCallTests.environment($0).contains("LYING_WORKER=silent") }
        }
        call.cancel()
        await #expect(throws: MediaError.cancelled(file: Self.photo.name)) { _ = try await call.value }
        await #expect(throws: MediaError.self) { _ = try await MediaProber(configuration: Self.configuration("silent")).probe(Self.photo) }
    }

    /// Descriptors a worker sends with its hello are closed, not kept: a worker that sent 4 with
    /// each hello (as many as a message may carry) grew a server by 4 open files a call.
    @Test func descriptorsSentWithAHelloAreClosed() async throws {
        // This process's descriptors of the worker's script, which only such a hello brings here.
        func kept() throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == Self.worker
            }.count
        }
        for _ in 0..<3 {
            await #expect(throws: MediaError.self) { _ = try await MediaProber(configuration: Self.configuration("descriptors")).probe(Self.photo) }
        }
        #expect(try kept() == 0)
    }

    @Test func picturesOfSizesNotAskedForAreRefused() async throws {
        await #expect {
            _ = try await ThumbnailGenerator(configuration: Self.configuration("big")).thumbnails(of: Self.photo, fitting: [ThumbnailBounds(width: 16)])
        } throws: { error in
            guard case MediaError.damaged(_, let reason)? = error as? MediaError else { return false }
            return reason.contains("where none of that size was asked for") || reason.contains("over")
        }
    }

    /// A worker of another version (its hello says another protocol, or none) is the
    /// installation's fault, naming both protocols, not the upload's.
    @Test(arguments: [("protocol-1", 1), ("protocol-5", 5)])
    func aWorkerOfAnotherVersionIsADeploymentFailure(mode: String, version: Int) async throws {
        await #expect {
            _ = try await MediaProber(configuration: Self.configuration(mode)).probe(Self.photo)
        } throws: { error in
            guard case MediaError.deployment(_, let reason)? = error as? MediaError else { return false }
            return reason.contains("speaks worker protocol \(version), this process protocol 4")
        }
    }

    /// Only the caller's side judges the installation: a worker that blames it is believed no more
    /// than any worker's word, and its failure is mediatool's own.
    @Test func aWorkerThatBlamesTheDeploymentIsNotBelieved() async throws {
        await #expect {
            _ = try await MediaProber(configuration: Self.configuration("deployment")).probe(Self.photo)
        } throws: { error in
            guard case MediaError.internalFailure(_, let reason)? = error as? MediaError else { return false }
            return reason.contains("your installation is broken")
        }
    }

    @Test func aReportThatSwellsIsRefused() async throws {
        await #expect(throws: MediaError.self) {
            _ = try await MediaProber(configuration: Self.configuration("swollen")).probe(Self.photo)
        }
    }

    /// Only a job that writes its output in place (a web video) may say it progresses, which
    /// moves its time limit on: a probe's worker that says so (a picture's decoder taken over,
    /// which would hold its slot for 12 hours) is wrong, and ended at once, whether its counts
    /// grow or repeat (the eighth red team's).
    @Test(arguments: ["progress", "stuck"])
    func aWorkerOfAnotherJobThatSaysItProgressesIsEnded(mode: String) async throws {
        // Believed, "progress" would answer its probe after 3 s, past its 2 s timeout, and
        // "stuck" would time out: only the control's refusal is a malformed answer.
        await #expect {
            _ = try await MediaProber(configuration: Self.configuration(mode)).probe(Self.photo)
        } throws: { error in
            guard case MediaError.damaged(_, let reason)? = error as? MediaError else { return false }
            return reason.contains("gave a malformed answer")
        }
    }

    @Test func aPositionNotAskedForIsDropped() async throws {
        var prober = MediaProber(configuration: Self.configuration("gps"))
        prober.includesGPS = false
        #expect(try await prober.probe(Self.photo).gps == nil)
    }

    /// The worker's environment holds what its libraries read, not the server's.
    @Test func theServersEnvironmentIsNotTheWorkers() async throws {
        await #expect {
            _ = try await MediaProber(configuration: Self.configuration("environment")).probe(Self.photo)
        } throws: { error in
            let names = Set(((error as? MediaError)?.reason ?? "").split(separator: " ").map(String.init))
            let allowed: Set<String> = ["PATH", "LD_LIBRARY_PATH", "LANG", "LC_ALL", "LC_CTYPE", "LC_NUMERIC", "TZ", "TMPDIR", "ASAN_OPTIONS",
                                        "UBSAN_OPTIONS", "LSAN_OPTIONS", "MEDIATOOL_TEST_WORKER_TRIGGER", "MEDIATOOL_CGROUP_CPU_MAX",
                                        "GLIBC_TUNABLES", "SWIFT_BACKTRACE", "MEDIATOOL_SANDBOX_WORKER", "MEDIATOOL_SANDBOX_PARENT",
                                        "MEDIATOOL_SANDBOX_DECODERS", "LYING_WORKER"]
            return names.contains("LYING_WORKER") && names.isSubset(of: allowed) && ProcessInfo.processInfo.environment["HOME"].map { _ in !names.contains("HOME") } ?? true
        }
    }
}
