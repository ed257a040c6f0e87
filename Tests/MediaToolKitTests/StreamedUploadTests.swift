import Foundation
import MediaToolKit
import Testing
import TestSupport

/// `MediaSource.upload`: a body taken chunk by chunk is the file it carries, and one that is no
/// media, or too large, is refused while its client is still sending.
@Suite struct StreamedUploadTests {
    /// Chunks of `bytes`, `size` at a time, counting how many were taken.
    final class Chunks: AsyncSequence, @unchecked Sendable {
        typealias Element = [UInt8]
        let bytes: [UInt8]
        let size: Int
        private let lock = NSLock()
        private var taken = 0

        init(_ bytes: [UInt8], size: Int) {
            self.bytes = bytes
            self.size = size
        }

        var takenCount: Int { lock.withLock { taken } }

        func makeAsyncIterator() -> Iterator { Iterator(chunks: self) }

        /// A chunk when asked for, as a client's socket gives them.
        struct Iterator: AsyncIteratorProtocol {
            let chunks: Chunks
            var start = 0

            mutating func next() async -> [UInt8]? {
                guard start < chunks.bytes.count else { return nil }
                chunks.lock.withLock { chunks.taken += 1 }
                defer { start += chunks.size }
                return Array(chunks.bytes[start..<Swift.min(start + chunks.size, chunks.bytes.count)])
            }
        }
    }

    @Test(arguments: ["pictures/orientation6.jpg", "probe/phone-hlg-portrait.mov"])
    func anUploadInChunksIsTheFile(fixture: String) async throws {
        let bytes = try RepositoryFixtures.bytes(fixture)
        let upload = try await MediaSource.upload(Chunks(bytes, size: 1000), name: "upload", maxBytes: 1 << 30)
        let generator = ThumbnailGenerator()
        let fromUpload = try await generator.thumbnails(of: upload, fitting: [ThumbnailBounds(width: 40)])
        let fromFile = try await generator.thumbnails(of: KitFixtures.source(fixture), fitting: [ThumbnailBounds(width: 40)])
        #expect(fromUpload.images == fromFile.images)
        // The same source serves a second call: the file was written once.
        #expect(try await MediaProber().probe(upload).width == MediaProber().probe(KitFixtures.source(fixture)).width)
    }

    /// Noise is refused once its first MiB is in, not after all 16.
    @Test func noiseIsRefusedFromItsFirstMiB() async throws {
        var generator = SplitMix64(seed: 7)
        let noise = (0..<(2 << 20)).flatMap { _ in withUnsafeBytes(of: generator.next()) { Array($0) } }
        let chunks = Chunks(noise, size: 64 << 10)
        await #expect {
            _ = try await MediaSource.upload(chunks, name: "noise", maxBytes: 1 << 30)
        } throws: { error in
            guard case MediaError.unsupportedFormat(let file, _)? = error as? MediaError else { return false }
            return file == "noise"
        }
        // The 16 chunks of the first MiB, not the 256 of all.
        #expect(chunks.takenCount == 16)
    }

    @Test func anUploadPastItsLimitIsRefused() async throws {
        let bytes = try RepositoryFixtures.bytes("probe/phone-hlg-portrait.mov")
        await #expect(throws: MediaError.overLimit(file: "upload", reason: "the upload went on past 1000 bytes (maxBytes)")) {
            _ = try await MediaSource.upload(Chunks(bytes, size: 300), name: "upload", maxBytes: 1000)
        }
        await #expect(throws: MediaError.unsupportedFormat(file: "upload", reason: "an empty file")) {
            _ = try await MediaSource.upload(Chunks([], size: 300), name: "upload", maxBytes: 1000)
        }
    }
}
