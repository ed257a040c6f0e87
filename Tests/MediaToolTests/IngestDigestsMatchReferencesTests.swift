import Foundation
import Testing
import TestSupport

/// `ingest`'s placeholders and hashes against the reference implementations from PyPI, run on the
/// same uploads as a site would run them: Pillow opens the file and turns it upright by its EXIF
/// orientation (a HEIF, which Pillow does not read, is given to it as libheif's heif-convert
/// decodes it, upright). The placeholders must decode to pictures within 25 dB of the references' own;
/// the hashes may differ by a few bits, as the references reduce the whole picture where
/// mediatool reduces the reduction it makes its renditions from.
@Suite struct IngestDigestsMatchReferencesTests {
    static let python = Fixture.root.deletingLastPathComponent().appendingPathComponent(".build/references/bin/python").path
    static let script = Fixture.root.deletingLastPathComponent().appendingPathComponent("Tests/PictureDigestsTests/Scripts/digest_references.py").path
    static let heifConvert = "/usr/bin/heif-convert"

    static let uploads = (1...8).map { "pictures/orientation\($0).jpg" } + (1...8).map { "pictures/orientation\($0).png" }
        + ["tiff/orientation1.tif", "tiff/orientation6.tif", "heif/orientation1.heic", "heif/orientation6.heic", "heif/orientation8.heic",
           "pictures/camera.jpg", "pictures/noise420.jpg", "pictures/noise444.jpg", "pictures/rgba8.png", "pictures/gray8.png", "pictures/rgb16.png",
           // pHash of pictures whose DCT has exact zeros (flat, one-way gradient, mirrored).
           "pictures/flat.png", "pictures/gradient.png", "pictures/mirrored.png"]

    @Test(.enabled(if: try Requirement.tool(python) && Requirement.tool(heifConvert)))
    func placeholdersAndHashesAgreeWithTheReferences() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recipe = folder.appendingPathComponent("recipe.json")
        try Data(#"{"renditions": [{"name": "small", "size": "64"}], "storyboard": false, "preview": false}"#.utf8).write(to: recipe)
        let run = try ToolRun.run(["ingest", "--recipe", recipe.path, "--out-dir", folder.appendingPathComponent("out").path, "--json"]
                                  + Self.uploads.map(Fixture.path))
        #expect(run.status == 0, "\(run.standardError)")
        var requests: [String] = []
        var manifests: [String: [String: Any]] = [:]
        for line in run.output.split(separator: "\n") {
            let manifest = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let input = try #require(manifest["input"] as? String)
            manifests[input] = manifest
            var reference = input
            if input.hasSuffix(".heic") {
                reference = folder.appendingPathComponent(URL(fileURLWithPath: input).lastPathComponent + ".png").path
                let converted = try ChildProcess.run(Self.heifConvert, [input, reference])
                #expect(converted.status == 0)
            }
            let placeholder = try #require(manifest["placeholder"] as? [String: String])
            let hash = try #require(manifest["hash"] as? [String: String])
            // Pillow 9.4 loads a TIFF upright already (libtiff's RGBA reader turns it) and its
            // exif_transpose would turn it again: given as it loads.
            let upright = reference != input || input.hasSuffix(".tif")
            let request: [String: Any] = ["path": reference, "input": input, "upright": upright, "thumbhash": placeholder["thumbhash"]!, "blurhash": placeholder["blurhash"]!,
                                             "dhash": hash["dhash"]!, "phash": hash["phash"]!]
            requests.append(String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self))
        }
        #expect(requests.count == Self.uploads.count)
        let compared = try ChildProcess.run(Self.python, [Self.script, "compare"], input: Data((requests.joined(separator: "\n") + "\n").utf8))
        #expect(compared.status == 0, "\(String(decoding: compared.standardError, as: UTF8.self))")
        let results = String(decoding: compared.standardOutput, as: UTF8.self).split(separator: "\n")
        #expect(results.count == requests.count)
        for (request, line) in zip(requests, results) {
            let result = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let thumbHash = try #require(result["thumbhash_db"] as? Double), blurHash = try #require(result["blurhash_db"] as? Double)
            let dhash = try #require(result["dhash_bits"] as? Int), phash = try #require(result["phash_bits"] as? Int)
            let sent = try #require(try JSONSerialization.jsonObject(with: Data(request.utf8)) as? [String: Any])
            let input = sent["input"] as? String ?? ""
            print("digests: \(input.split(separator: "/").suffix(2).joined(separator: "/")): thumbhash \(thumbHash) dB, blurhash \(blurHash) dB, dhash \(dhash) bits, phash \(phash) bits")
            #expect(thumbHash >= 25 && blurHash >= 25, "\(request): \(line)")
            // Below 32x32 (a 7x5 gradient), pHash enlarges the picture, and most of its coefficients are
            // 0, the median: which side of it each falls is rounding noise, in theirs and ours.
            let manifest = manifests[input]!
            if (manifest["width"] as? Int ?? 0) >= 32 && (manifest["height"] as? Int ?? 0) >= 32 {
                #expect(dhash <= 2 && phash <= 2, "\(request): \(line)")
            }
        }
    }
}
