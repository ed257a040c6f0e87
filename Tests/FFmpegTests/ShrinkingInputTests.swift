import FFmpeg
import FileIO
import Foundation
import Glibc
import Testing

/// A video file that shrinks while it is read is an error, not a short video (a
/// storyboard said "80 of the times lie past the last frame" and exited 0).
@Suite struct ShrinkingInputTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/video/four-seconds.mp4")

    /// A copy of the fixture in a folder of its own, which `body` may cut or write to.
    static func withCopy(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mediatool-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("clip.mp4")
        try FileManager.default.copyItem(at: Self.fixture, to: copy)
        try body(copy)
    }

    @Test(arguments: [VideoSource.SeekMode.exact, .keyframe])
    func aFileThatShrinksAfterItsHeaderIsAnError(mode: VideoSource.SeekMode) throws {
        try Self.withCopy { copy in
            let file = try InputFile(path: copy.path)
            let video = try VideoSource(file: file, threads: 1)
            let size = try #require(file.size)
            // Someone cuts the file after its header was read: the frames near the end are gone.
            #expect(truncate(copy.path, off_t(size / 2)) == 0)
            #expect(throws: InputError.shrank(expected: size, found: size / 2)) {
                _ = try video.frame(atSeconds: 100, mode: mode)
            }
        }
    }

    /// A file written to after its header was checked and read is an error, not bytes: what
    /// FFmpeg would parse next was not what was checked (the seventh red team rewrote a run's
    /// count in place between the index check and FFmpeg's read). Same bytes, written again: the
    /// write is what counts.
    @Test func aFileWrittenToAfterItWasCheckedIsAnError() throws {
        try Self.withCopy { copy in
            let file = try InputFile(path: copy.path)
            let video = try VideoSource(file: file, threads: 1)
            // Past the file system's timestamp granularity (a few ms), then one byte written back as it was.
            usleep(50_000)
            let descriptor = open(copy.path, O_RDWR)
            #expect(descriptor >= 0)
            var byte: UInt8 = 0
            #expect(pread(descriptor, &byte, 1, 100) == 1 && pwrite(descriptor, &byte, 1, 100) == 1)
            close(descriptor)
            #expect(throws: InputError.changed) { _ = try video.frame(atSeconds: 100, mode: .exact) }
        }
    }
}
