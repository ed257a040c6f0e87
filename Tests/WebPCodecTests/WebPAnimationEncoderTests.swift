import Foundation
import Testing
import TestSupport
import WebPCodec

@Suite struct WebPAnimationEncoderTests {
    /// Three 16x8 frames, each one colour, as `webpmux -info` (libwebp's own tool) lists them.
    @Test(.enabled(if: try Requirement.tool("/usr/bin/webpmux")))
    func framesAndDurationsAreWhatWebpmuxLists() throws {
        let encoder = try WebPAnimationEncoder(width: 16, height: 8, lossless: true)
        for (colour, milliseconds) in [([255, 0, 0] as [UInt8], 100), ([0, 255, 0], 250), ([0, 0, 255], 100)] {
            let pixels = [UInt8]((0..<(16 * 8)).flatMap { _ in colour })
            try pixels.withUnsafeBytes { try encoder.add(pixels: $0, channels: 3, milliseconds: milliseconds) }
        }
        let bytes = try encoder.finish()
        #expect(Array(bytes.prefix(4)) == Array("RIFF".utf8))
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.webp").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let run = try ChildProcess.run("/usr/bin/webpmux", ["-info", path])
        let info = String(decoding: run.standardOutput, as: UTF8.self)
        #expect(run.status == 0)
        #expect(info.contains("Canvas size: 16 x 8"))
        #expect(info.contains("Number of frames: 3"))
        // The rows of the frame table: the duration is its seventh column.
        let durations = info.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).first?.isNumber == true && $0.contains(":") }
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
            .filter { $0.count > 6 }.map { $0[6] }
        #expect(durations == ["100", "250", "100"], "\(info)")
        #expect(try WebPDecoder(bytes: bytes).frameCount == 3)
    }

    @Test func anAnimationOfNoFramesOrTooLargeIsAnError() throws {
        #expect(throws: WebPError.self) { try WebPAnimationEncoder(width: 20000, height: 10) }
        #expect(throws: WebPError.self) { try WebPAnimationEncoder(width: 10, height: 10).finish() }
    }
}
