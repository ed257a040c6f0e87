import Foundation
@testable import MediaToolKit
import Testing
import TestSupport

/// Serialized: the tests of `images(at:)` watch the process's producing threads end.
@Suite(.serialized) struct VideoFrameGeneratorTests {
    /// Waits (up to a deadline) until no loop's producing thread runs.
    static func producersEnd() async throws {
        try await ChildProcess.waitUntil("the producing threads end", deadline: KitFixtures.suiteWait) { VideoFrames.Iterator.runningProducers.load(ordering: .relaxed) == 0 }
    }

    @Test func aPhoneVideoStoredOnItsSideComesOutUpright() async throws {
        let frame = try await VideoFrameGenerator(KitFixtures.source("video/quadrants-orientation6.mp4")).image(at: 0)
        #expect((frame.image.width, frame.image.height) == (96, 64))
        #expect(frame.orientation == .right)
        let quadrants = [(24, 16), (72, 16), (24, 48), (72, 48)].map { KitFixtures.colourName(frame.image.pixel(x: $0.0, y: $0.1)) }
        #expect(quadrants == ["red", "green", "blue", "white"])
    }

    @Test func withoutTheTrackTransformTheStoredPictureComesOut() async throws {
        var generator = VideoFrameGenerator(KitFixtures.source("video/quadrants-orientation6.mp4"))
        generator.appliesPreferredTrackTransform = false
        let frame = try await generator.image(at: 0)
        #expect((frame.image.width, frame.image.height) == (64, 96))
        let quadrants = [(16, 24), (48, 24), (16, 72), (48, 72)].map { KitFixtures.colourName(frame.image.pixel(x: $0.0, y: $0.1)) }
        #expect(quadrants == ["green", "white", "red", "blue"])
    }

    /// The counter shows its frame number; 25 frames a second, a keyframe every 12 (0.48 s), B-frames between.
    @Test(arguments: [(0.0, 0), (0.5, 12), (0.79, 19), (1.0, 25), (2.39, 59)])
    func zeroToleranceGivesTheExactFrame(time: Double, frame: Int) async throws {
        let made = try await VideoFrameGenerator(KitFixtures.source("video/counter.mp4")).image(at: time)
        #expect(KitFixtures.frameNumber(made.image) == frame)
        #expect(abs(made.actualTime - Double(frame) * 0.04) < 1e-9)
        #expect(made.requestedTime == time)
    }

    @Test func infiniteToleranceGivesTheKeyframeBefore() async throws {
        var generator = VideoFrameGenerator(KitFixtures.source("video/counter.mp4"))
        generator.requestedTimeToleranceBefore = .infinity
        generator.requestedTimeToleranceAfter = .infinity
        let made = try await generator.image(at: 0.79)
        #expect(KitFixtures.frameNumber(made.image) == 12)
        #expect(abs(made.actualTime - 0.48) < 1e-9)
    }

    @Test func aFiniteToleranceTakesTheKeyframeOnlyWithinIt() async throws {
        var generator = VideoFrameGenerator(KitFixtures.source("video/counter.mp4"))
        generator.requestedTimeToleranceBefore = 0.1
        // The keyframe at 0.48 s lies 0.31 s before: outside, so the exact frame.
        #expect(KitFixtures.frameNumber(try await generator.image(at: 0.79).image) == 19)
        // 0.04 s before: inside.
        #expect(KitFixtures.frameNumber(try await generator.image(at: 0.52).image) == 12)
    }

    @Test func maximumSizeFitsTheFrameInside() async throws {
        var generator = VideoFrameGenerator(KitFixtures.source("video/quadrants-orientation6.mp4"))
        generator.maximumSize = ThumbnailBounds(width: 48, height: 0)
        let frame = try await generator.image(at: 0)
        #expect((frame.image.width, frame.image.height) == (48, 32))
    }

    @Test func manyTimesInOnePassAreTheFramesOneAtATimeGives() async throws {
        let generator = VideoFrameGenerator(KitFixtures.source("video/counter.mp4"))
        let times = [1.5, 0.1, 0.79, 0.8, 2.0]
        var seen: [(Double, Int)] = []
        for try await frame in generator.images(at: times) {
            seen.append((frame.requestedTime, KitFixtures.frameNumber(frame.image)))
            #expect(frame.image == (try await generator.image(at: frame.requestedTime)).image)
        }
        #expect(seen.map(\.0) == times.sorted())
        #expect(seen.map(\.1) == [2, 19, 20, 37, 50])
    }

    @Test func breakingOutOfTheLoopStopsTheDecoding() async throws {
        let generator = VideoFrameGenerator(KitFixtures.source("video/counter.mp4"))
        var taken = 0
        for try await _ in generator.images(at: (0..<60).map { Double($0) * 0.04 }) {
            taken += 1
            if taken == 2 { break }
        }
        #expect(taken == 2)
        try await Self.producersEnd()
        // Started and dropped without a cancel, or never started: no thread is left either.
        var iterator = generator.images(at: [0, 1, 2]).makeAsyncIterator()
        _ = try await iterator.next()
        _ = generator.images(at: [0, 1]).makeAsyncIterator()
        iterator = generator.images(at: []).makeAsyncIterator()
        #expect(try await iterator.next() == nil)
        try await Self.producersEnd()
    }

    @Test func aCancelledTaskStopsWithCancelled() async throws {
        let generator = VideoFrameGenerator(KitFixtures.source("video/counter.mp4"))
        let task = Task {
            var count = 0
            for try await _ in generator.images(at: (0..<60).map { Double($0) * 0.04 }) {
                count += 1
                if count == 1 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        // Cancelled: the loop ends early with `.cancelled`, never as a sequence that ended.
        await #expect(throws: MediaError.cancelled(file: RepositoryFixtures.path("video/counter.mp4"))) { try await task.value }
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await generator.image(at: 1)
        }
        await #expect(throws: MediaError.cancelled(file: RepositoryFixtures.path("video/counter.mp4"))) { try await cancelled.value }
        try await Self.producersEnd()
    }

    @Test func aPictureIsNoVideo() async throws {
        let picture = KitFixtures.source("pictures/orientation6.jpg")
        let refusal = MediaError.noVideo(file: picture.name, reason: "a picture, not a video (ImageSource reads pictures)")
        await #expect(throws: refusal) { try await VideoFrameGenerator(picture).image(at: 0) }
        await #expect(throws: refusal) {
            for try await _ in VideoFrameGenerator(picture).images(at: [0]) {}
        }
        try await Self.producersEnd()
    }

    @Test func errorsSayWhatTheCommandLineSays() async throws {
        for (fixture, time) in [("video/audio-only.m4a", 0.0), ("video/not-media.mp4", 0.0), ("pictures/not-a-picture.png", 0.0)] {
            let path = RepositoryFixtures.path(fixture)
            let run = try KitFixtures.tool(["thumbnail", "--at", "0", path, "-o", "/dev/null", "--sandbox", "off"])
            let line = String(decoding: run.standardError, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
            do {
                _ = try await VideoFrameGenerator(.path(path)).image(at: time)
                Issue.record("\(fixture) gave a frame")
            } catch {
                #expect("mediatool: \(error)" == line)
            }
        }
        await #expect(throws: MediaError.self) { try await VideoFrameGenerator(KitFixtures.source("video/counter.mp4")).image(at: -1) }
    }

    @Test func bytesInMemoryGiveTheFileSFrames() async throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: RepositoryFixtures.path("video/counter.mp4")))
        let frame = try await VideoFrameGenerator(.data(data, name: "upload.mp4")).image(at: 1)
        #expect(KitFixtures.frameNumber(frame.image) == 25)
        let descriptor = open(RepositoryFixtures.path("video/counter.mp4"), O_RDONLY)
        defer { close(descriptor) }
        #expect(KitFixtures.frameNumber(try await VideoFrameGenerator(.fileDescriptor(descriptor)).image(at: 1).image) == 25)
        #expect(KitFixtures.frameNumber(try await VideoFrameGenerator(.fileDescriptor(descriptor)).image(at: 0.5).image) == 12)
    }
}
