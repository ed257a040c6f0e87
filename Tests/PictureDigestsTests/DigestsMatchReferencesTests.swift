import Foundation
import Imaging
import Testing
import TestSupport
@testable import PictureDigests

/// The encoders against their references from PyPI on the same pixels: the values must be equal,
/// since nothing but the arithmetic stands between them.
@Suite struct DigestsMatchReferencesTests {
    static let python = RepositoryFixtures.root.deletingLastPathComponent().appendingPathComponent(".build/references/bin/python").path
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/digest_references.py").path

    /// A picture with smooth shapes, edges and noise, so that every frequency has something.
    static func picture(width: Int, height: Int, channels: Int, seed: UInt64) -> PixelBuffer {
        var random = SplitMix64(seed: seed)
        let (cx, cy) = (Double(random.next() % 100) / 100, Double(random.next() % 100) / 100)
        return PixelBuffer(width: width, height: height, channels: channels) { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    let u = Double(x) / Double(width), v = Double(y) / Double(height)
                    let ring = ((u - cx) * (u - cx) + (v - cy) * (v - cy)) < 0.08 ? 90.0 : 0
                    let noise = Double(random.next() % 24)
                    let values = [40 + 150 * u + ring + noise, 200 - 120 * v + noise, 60 + 100 * sin(6 * u + 3 * v) + ring, 255 - 200 * u * v]
                    for channel in 0..<channels {
                        let value = channels <= 2 && channel == 1 ? values[3] : values[channel]
                        bytes[(y * width + x) * channels + channel] = UInt8(max(0, min(255, value)))
                    }
                }
            }
        }
    }

    static func references(_ pictures: [PixelBuffer]) throws -> [[String: Any]] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("digests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (index, picture) in pictures.enumerated() {
            let path = folder.appendingPathComponent("\(index).rgba").path
            try Data(RGBSamples(picture).rgba).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let run = try ChildProcess.run(python, [script, "pixels", "\(pictures[0].width)", "\(pictures[0].height)"] + paths)
        #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
        return try String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    @Test(.enabled(if: try Requirement.tool(python)), arguments: [(100, 67, 3), (64, 100, 4), (37, 23, 1), (100, 100, 2), (9, 8, 3)])
    func placeholdersAndHashesOfSmallPictures(width: Int, height: Int, channels: Int) throws {
        let pictures = (0..<3).map { Self.picture(width: width, height: height, channels: channels, seed: UInt64(width * 7 + channels + $0)) }
        for (picture, reference) in zip(pictures, try Self.references(pictures)) {
            #expect(Data(ThumbHash.encode(picture)).base64EncodedString() == reference["thumbhash"] as? String)
            #expect(BlurHash.encode(picture) == reference["blurhash"] as? String)
            #expect(ImageHash.differenceHash(picture) == reference["dhash"] as? String)
            #expect(ImageHash.perceptualHash(picture) == reference["phash"] as? String)
        }
    }

    /// Pillow's reduction from a few hundred pixels, as the hashes take it.
    @Test(.enabled(if: try Requirement.tool(python)), arguments: [(256, 171, 3), (192, 256, 4), (255, 255, 1)])
    func hashesOfLargerPictures(width: Int, height: Int, channels: Int) throws {
        let pictures = (0..<3).map { Self.picture(width: width, height: height, channels: channels, seed: UInt64(height * 3 + $0)) }
        for (picture, reference) in zip(pictures, try Self.references(pictures)) {
            #expect(ImageHash.differenceHash(picture) == reference["dhash"] as? String)
            #expect(ImageHash.perceptualHash(picture) == reference["phash"] as? String)
            #expect(BlurHash.encode(picture) == reference["blurhash"] as? String)
        }
    }

    @Test func hexIsSixteenDigitsFirstBitHighest() {
        #expect(ImageHash.hex([true] + [Bool](repeating: false, count: 63)) == "8000000000000000")
        #expect(ImageHash.hex([Bool](repeating: false, count: 63) + [true]) == "0000000000000001")
    }
}
