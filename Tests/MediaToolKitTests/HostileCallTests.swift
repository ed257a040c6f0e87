import Foundation
@testable import MediaToolKit
import Testing
import TestSupport

/// What a careless or hostile caller passes: every one a `MediaError`, never a trap or a wrong answer.
@Suite struct HostileCallTests {
    /// A number of no bytes: conforming is allowed, reading it is refused.
    struct Nothing: BinaryNumber {
        static func load(from pointer: UnsafeRawPointer, _ endianness: Endianness) -> Nothing { Nothing() }
    }

    @Test func sizesPastAMillionPixelsAreRefused() async throws {
        let source = try await ImageSource(KitFixtures.source("pictures/orientation1.png"))
        await #expect(throws: MediaError.self) { try await source.thumbnails(fitting: [ThumbnailBounds(width: 3_000_000_000, enlarges: true)]) }
        await #expect(throws: MediaError.self) {
            try await ThumbnailGenerator().thumbnails(of: KitFixtures.source("pictures/orientation1.png"), fitting: [ThumbnailBounds(height: Int.max, enlarges: true)])
        }
        var generator = VideoFrameGenerator(KitFixtures.source("video/counter.mp4"))
        generator.maximumSize = ThumbnailBounds(width: 1 << 40, enlarges: true)
        await #expect(throws: MediaError.self) { try await generator.image(at: 0) }
        // Enlarging, asked for, is done.
        generator.maximumSize = ThumbnailBounds(width: 256, enlarges: true)
        #expect(try await generator.image(at: 0).image.width == 256)
    }

    @Test func anyThreadCountWorks() async throws {
        for threads in [Int.max, Int.min, -1, 0, 1, 1000] {
            let configuration = MediaConfiguration(threads: threads)
            #expect(KitFixtures.frameNumber(try await VideoFrameGenerator(KitFixtures.source("video/counter.mp4"), configuration: configuration).image(at: 1).image) == 25)
            #expect(try await ImageSource(KitFixtures.source("pictures/orientation3.png"), configuration: configuration).image().pixels == KitFixtures.upright)
        }
    }

    @Test func numbersOfNoBytesAreRefused() async throws {
        #expect(throws: MediaError.self) { try BinaryArray<Nothing>([1, 2, 3]) }
        let url = URL(fileURLWithPath: RepositoryFixtures.path("pictures/upright.rgb"))
        await #expect(throws: MediaError.self) {
            for try await _ in BinaryArrayFile<Nothing>(.file(url)) {}
        }
    }

    @Test func rectsThatAreNoRectsAreRefused() async throws {
        let source = try await ImageSource(KitFixtures.source("pictures/orientation1.png"))
        for rect in [ImageRect(x: .nan, y: 0, width: 5, height: 5), ImageRect(x: 0, y: 0, width: -5, height: 5), ImageRect(x: 0, y: 0, width: 0, height: 5),
                     ImageRect(x: 0, y: .infinity, width: 5, height: 5), ImageRect(x: 0, y: 0, width: 5, height: 1e300)] {
            for clamps in [false, true] {
                await #expect(throws: MediaError.self, "\(rect)") { try await source.cropping(to: rect, clamps: clamps) }
            }
        }
        for (width, height) in [(0.0, 10.0), (-1, 10), (.nan, 10), (10, .infinity)] {
            await #expect(throws: MediaError.self) {
                try await source.cropping(to: ImageRect(x: 0, y: 0, width: 5, height: 5), in: .view(width: width, height: height, contentMode: .fit))
            }
        }
    }

    @Test func urlsThatAreNoFilesAreNeverTakenForLocalPaths() async throws {
        let remote = URL(string: "http://example.com\(RepositoryFixtures.path("pictures/orientation1.png"))")!
        await #expect(throws: MediaError.self) { try await ImageSource(.file(remote)) }
        let image = try await ImageSource(KitFixtures.source("pictures/orientation1.png")).image()
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        await #expect(throws: MediaError.self) { try await image.write(to: URL(string: "http://example.com\(folder.path)/x.png")!) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aNameThatIsNotUTF8IsWrittenByItsOwnBytes() async throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try await ImageSource(KitFixtures.source("pictures/orientation1.png")).image()
        let name: [UInt8] = Array("bad".utf8) + [0xFF] + Array(".png".utf8)
        // As percent-encoding spells the byte (Foundation drops it from a URL made of the bytes themselves).
        let url = try #require(URL(string: "file://\(folder.path)/bad%FF.png"))
        try await image.write(to: url)
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(written.count == 1)
        // The directory entry holds the byte 0xFF itself, not U+FFFD's three bytes.
        let entries = try #require(opendir(folder.path))
        defer { closedir(entries) }
        var found: [[UInt8]] = []
        while let entry = readdir(entries) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if bytes != Array(".".utf8) && bytes != Array("..".utf8) { found.append(bytes) }
        }
        #expect(found == [name])
    }

    @Test func callsSideBySideOnOneDescriptorNeitherFailNorMoveIt() async throws {
        for fixture in ["pictures/orientation6.jpg", "pictures/orientation6.png", "video/counter.mp4"] {
            let descriptor = open(RepositoryFixtures.path(fixture), O_RDONLY | O_CLOEXEC)
            defer { close(descriptor) }
            lseek(descriptor, 100, SEEK_SET)
            let source = MediaSource.fileDescriptor(descriptor, name: fixture)
            let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<12 {
                    group.addTask { try await ThumbnailGenerator().thumbnails(of: source, fitting: [.maxPixelSize(32)]).images[0].width }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(sizes.count == 12 && Set(sizes).count == 1, "\(fixture): \(sizes)")
            _ = try await MediaProber().probe(source)
            #expect(lseek(descriptor, 0, SEEK_CUR) == 100, "\(fixture)")
        }
    }

    @Test func copiesOfAnIteratorShareOnePass() async throws {
        let generator = VideoFrameGenerator(KitFixtures.source("video/counter.mp4"))
        var first = generator.images(at: [0, 0.5, 1, 1.5]).makeAsyncIterator()
        var second = first
        var times: [Double] = []
        while let frame = try await first.next() {
            times.append(frame.requestedTime)
            if let other = try await second.next() { times.append(other.requestedTime) }
        }
        #expect(times == [0, 0.5, 1, 1.5])
    }
}
