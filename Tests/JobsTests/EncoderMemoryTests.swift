import Foundation
import FFmpeg
import FileIO
import Imaging
import Synchronization
import Testing
import TestSupport
import WebVideo
import WorkerPool

/// One transcode of the test, its video opened before it runs.
private final class Job {
    let transcoder: Transcoder
    var video: VideoSource?

    init(transcoder: Transcoder, video: VideoSource) {
        self.transcoder = transcoder
        self.video = video
    }
}

/// A web video's encoder memory is reserved with its decoder's frame, as one: waiting for it
/// while holding the frame, two jobs each held what the other waited for.
@Suite struct EncoderMemoryTests {
    /// Two 720p videos whose frames are both held before either asks for its encoder (x264 at
    /// 720p takes 113 MiB, a frame 15): one frame and an encoder fit 135 MiB, two frames and an
    /// encoder do not. Each wait gives up after 2 s where every holder waits (a deadlock); a wait
    /// behind a job that works on is never given up. Both are made.
    @Test(.enabled(if: (try? Requirement.tool("/usr/bin/ffmpeg")) ?? false, "ffmpeg is not installed (scripts/bootstrap test installs it)"))
    func twoWebVideosThatEachFitAloneAreBothMadeSideBySide() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("encoder-memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.avi").path
        let made = try ChildProcess.run("/usr/bin/ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-f", "lavfi", "-i",
                                                            "testsrc2=size=1280x720:rate=10:duration=1", "-c:v", "mpeg4", "-q:v", "5", clip],
                                        deadline: 120)
        try #require(made.status == 0)
        let total = 135 << 20
        let budget = MemoryBudget(total: total)
        let jobs = try (0..<2).map { _ in
            var options = TranscodeOptions()
            options.limits = DecodeLimits(maxMemory: total, budget: budget.share(total: total, givingUpAfter: 2))
            options.threads = 1
            let transcoder = Transcoder(options: options)
            // Opened here, both: each holds its frame before either asks for its encoder.
            return HandedOver(Job(transcoder: transcoder, video: try transcoder.opening(try InputFile(path: clip))))
        }
        let failures = Mutex<[String]>([])
        WorkerThreads.run(count: 2) { index in
            let transcoder = jobs[index].value.transcoder
            // The thread's own from here: a job that fails lets its frame go with it (kept here,
            // it would hold memory past its end, and the other would wait for it for ever).
            let video = jobs[index].value.video!
            jobs[index].value.video = nil
            let output = folder.appendingPathComponent("web-\(index).mp4").path
            do {
                let descriptor = FileSystem.open(output, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o644)
                defer { close(descriptor) }
                _ = try transcoder.transcode(try InputFile(path: clip), video: video, to: descriptor, target: output)
            } catch {
                failures.withLock { $0.append("\(index): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
    }
}
