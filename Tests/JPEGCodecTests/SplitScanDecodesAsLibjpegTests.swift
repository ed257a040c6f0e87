import FileIO
import Foundation
import JPEGCodec
import Testing
import TestSupport

/// A baseline scan decoded from two places at once gives the pixels libjpeg-turbo's own decoder
/// gives, at every scale, for every sampling, with and without restart markers; where the data is
/// damaged, it fails as libjpeg's does.
@Suite(.serialized) struct SplitScanDecodesAsLibjpegTests {
    static let fixtures = ["s420", "s422", "s444", "s440", "gray", "s420-optimized", "s420-restart-rows",
                           "s420-restart-7", "s444-restart-1", "gray-restart-rows", "s420-flat"]

    struct Decoding {
        var pixels: [UInt8] = []
        var met = false
    }

    static func decode(_ path: String, denominator: Int, split: SplitScan?) throws -> Decoding {
        let decoder = try JPEGDecoder(file: InputFile(path: path))
        var decoding = Decoding()
        try decoder.readScaled(denominator: denominator, bandRows: 7, splitScan: split) { bytes, _ in
            decoding.pixels.append(contentsOf: bytes)
        }
        decoding.met = decoder.splitScanMet
        return decoding
    }

    /// The fence: with the split forbidden (as where the libjpeg-turbo built or loaded is not the
    /// one it was written for, whose internals it replaces), libjpeg's own decoder gives the
    /// picture, the same pixels.
    @Test func withTheSplitFencedOffLibjpegsOwnDecoderGivesTheSamePixels() throws {
        #expect(JPEGDecoder.splitScanAvailable, "the split scan is built for Debian 12's libjpeg-turbo 2.1")
        let path = RepositoryFixtures.path("split-scan/s420.jpg")
        let split = try Self.decode(path, denominator: 1, split: SplitScan(tailShare: 0.47, minimumBytes: 0))
        #expect(split.met)
        JPEGDecoder.forbidSplitScan(true)
        defer { JPEGDecoder.forbidSplitScan(false) }
        #expect(!JPEGDecoder.splitScanAvailable)
        let fenced = try Self.decode(path, denominator: 1, split: SplitScan(tailShare: 0.47, minimumBytes: 0))
        #expect(!fenced.met)
        #expect(fenced.pixels == split.pixels)
    }

    @Test(arguments: fixtures)
    func samePixelsAtEveryScaleAndSplit(name: String) throws {
        let path = RepositoryFixtures.path("split-scan/\(name).jpg")
        var missed: [String] = []
        for denominator in [1, 2, 4, 8] {
            let reference = try Self.decode(path, denominator: denominator, split: nil)
            #expect(!reference.met)
            for share in [0.3, 0.47, 0.7] {
                let split = try Self.decode(path, denominator: denominator, split: SplitScan(tailShare: share, minimumBytes: 0))
                #expect(split.pixels == reference.pixels, "\(name) at 1/\(denominator), tail share \(share)")
                if !split.met { missed.append("1/\(denominator) share \(share)") }
            }
        }
        // The parts must meet (or the test would only check libjpeg against itself).
        #expect(missed.isEmpty, "\(name): the two parts did not meet at \(missed)")
    }

    /// Damaged data: the split decoder reports what libjpeg reports, or (where libjpeg-turbo
    /// passes a code longer than 16 bits silently in its fast path) a bad Huffman code.
    @Test func damagedScansFailAsLibjpegs() throws {
        let folder = try RepositoryFixtures.scratchFolder()
        let original = try RepositoryFixtures.bytes("split-scan/s420.jpg")
        var random = SplitMix64(seed: 42)
        var failures = 0
        for round in 0..<40 {
            var damaged = original
            if round < 8 {
                damaged = Array(damaged.prefix(original.count * (3 + round) / 12))  // truncated
            } else {
                for _ in 0..<(1 + round % 3) {
                    let place = 700 + Int(random.next() % UInt64(original.count - 800))
                    damaged[place] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            let path = folder.appendingPathComponent("damaged\(round).jpg").path
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            for denominator in [1, 8] {
                let reference = Result { try Self.decode(path, denominator: denominator, split: nil) }
                let split = Result { try Self.decode(path, denominator: denominator, split: SplitScan(minimumBytes: 0)) }
                switch (reference, split) {
                case let (.success(expected), .success(found)):
                    #expect(found.pixels == expected.pixels, "round \(round) at 1/\(denominator)")
                case let (.failure(expected), .failure(found)):
                    failures += 1
                    #expect("\(found)" == "\(expected)", "round \(round) at 1/\(denominator)")
                case let (.success, .failure(found)):
                    #expect("\(found)".contains("bad Huffman code"), "round \(round) at 1/\(denominator): \(found)")
                case let (.failure(expected), .success):
                    Issue.record("round \(round) at 1/\(denominator): libjpeg failed (\(expected)), the split decode did not")
                }
            }
        }
        #expect(failures > 8)
    }
}
