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

    @Test(arguments: [VideoSource.SeekMode.exact, .keyframe])
    func aFileThatShrinksAfterItsHeaderIsAnError(mode: VideoSource.SeekMode) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mediatool-shrink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("clip.mp4")
        try FileManager.default.copyItem(at: Self.fixture, to: copy)
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
