import Foundation
import Synchronization
@testable import MediaToolKit
import Testing
import TestSupport

/// `WebVideoMaker` gives a Swift server what `mediatool transcode` gives: the MP4 every browser
/// plays, with its progress as it goes, in a worker or in this process, from a path or bytes.
@Suite struct WebVideoMakerTests {
    /// The rotated clip with PCM sound: upright 96x64, its 35 frames, AAC, `moov` before `mdat`;
    /// progress told at least once with the length the file states, the result's bytes the file's.
    @Test func theLibraryMakesTheWebVideoAndSaysHowFarItHasGot() async throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = "video/sync.mov"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: RepositoryFixtures.path(fixture)))
        for (label, configuration, source) in [("in-process", SandboxedCallTests.inProcess, KitFixtures.source(fixture)),
                                               ("sandboxed", SandboxedCallTests.sandboxed, KitFixtures.source(fixture)),
                                               ("bytes", SandboxedCallTests.sandboxed, MediaSource.data(bytes, name: "sync.mov"))] {
            let output = folder.appendingPathComponent("\(label).mp4")
            let told = Told()
            let made = try await WebVideoMaker(configuration: configuration).makeWebVideo(of: source, to: output) { told.add($0) }
            #expect(made.width == 96 && made.height == 64 && made.frames == 35 && made.sound == "aac" && !made.isCutShort, "\(label): \(made)")
            let file = [UInt8](try Data(contentsOf: output))
            #expect(made.bytes == file.count, "\(label)")
            func position(_ type: String) -> Int? { file.indices.dropLast(4).first { Array(file[$0..<($0 + 4)]) == Array(type.utf8) } }
            #expect(position("ftyp") == 4 && position("moov") != nil && position("mdat") != nil && position("moov")! < position("mdat")!, "\(label)")
            let steps = told.all
            #expect(!steps.isEmpty && steps.allSatisfy { abs(($0.statedSeconds ?? 0) - 1.4) < 0.05 && $0.frames >= 1 }, "\(label): \(steps)")
        }
    }

    /// An upload cut short gives what could be decoded, said so; a file that is its own output
    /// is refused before anything is written.
    @Test func aCutShortUploadIsSaidSoAndTheInputIsNeverTheOutput() async throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try await WebVideoMaker(configuration: SandboxedCallTests.sandboxed)
            .makeWebVideo(of: KitFixtures.source("video/sync-cut-short.mov"), to: folder.appendingPathComponent("cut.mp4"))
        #expect(made.isCutShort && made.frames == 25 && made.warnings.contains { $0.contains("ends at 1.0 s of the 1.4 s") }, "\(made)")
        let input = folder.appendingPathComponent("input.mov")
        try FileManager.default.copyItem(atPath: RepositoryFixtures.path("video/sync.mov"), toPath: input.path)
        var maker = WebVideoMaker(configuration: SandboxedCallTests.sandboxed)
        maker.overwrite = true
        await #expect(throws: MediaError.self) { _ = try await maker.makeWebVideo(of: .path(input.path), to: input) }
        #expect(try Data(contentsOf: input) == Data(contentsOf: URL(fileURLWithPath: RepositoryFixtures.path("video/sync.mov"))))
    }
}

/// The progress a call told, from whichever thread told it.
private final class Told: Sendable {
    private let steps = Mutex<[WebVideoProgress]>([])

    func add(_ step: WebVideoProgress) { steps.withLock { $0.append(step) } }
    var all: [WebVideoProgress] { steps.withLock { $0 } }
}
