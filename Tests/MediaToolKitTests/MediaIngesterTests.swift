import Foundation
@testable import MediaToolKit
import Testing
import TestSupport

/// `MediaIngester` gives a Swift server what `mediatool ingest` gives: the same files, the same
/// manifest, in this process or in a worker, from a path or from bytes in memory.
@Suite struct MediaIngesterTests {
    static let recipe = try! MediaIngestRecipe(json: Data(#"{"renditions": [{"name": "small", "size": "48"}, {"name": "square", "size": "32", "fill": "attention", "format": "webp"}]}"#.utf8))

    @Test(arguments: ["heif/orientation6.heic", "video/counter.mp4"])
    func theLibraryWritesWhatTheCommandLineWrites(fixture: String) async throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recipeFile = folder.appendingPathComponent("recipe.json")
        try Data(#"{"renditions": [{"name": "small", "size": "48"}, {"name": "square", "size": "32", "fill": "attention", "format": "webp"}]}"#.utf8).write(to: recipeFile)
        let cli = try KitFixtures.tool(["ingest", "--recipe", recipeFile.path, "--out-dir", folder.appendingPathComponent("cli").path,
                                        RepositoryFixtures.path(fixture)])
        #expect(cli.status == 0)
        let name = URL(fileURLWithPath: fixture).lastPathComponent
        for (label, configuration, source) in [("in-process", SandboxedCallTests.inProcess, KitFixtures.source(fixture)),
                                               ("sandboxed", SandboxedCallTests.sandboxed, KitFixtures.source(fixture)),
                                               ("bytes", SandboxedCallTests.sandboxed, MediaSource.data(try Data(contentsOf: URL(fileURLWithPath: RepositoryFixtures.path(fixture))), name: name))] {
            let into = folder.appendingPathComponent(label)
            let result = try await MediaIngester(recipe: Self.recipe, configuration: configuration).ingest(source, into: into)
            #expect(result.manifest.lastPathComponent == "\(name).json")
            #expect(result.probe.width != nil && result.thumbHash != nil && result.perceptualHash?.count == 16)
            #expect(result.outputs.map(\.name).prefix(2) == ["small", "square"])
            for output in result.outputs {
                guard let url = output.url else { Issue.record("\(output.name) has no file"); continue }
                let theirs = folder.appendingPathComponent("cli").appendingPathComponent(url.lastPathComponent)
                // The storyboard's WebVTT file names its sheets relative to itself: the same text.
                #expect(try Data(contentsOf: url) == Data(contentsOf: theirs), "\(label): \(url.lastPathComponent)")
            }
            let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: result.manifest)) as? [String: Any]
            let cliManifest = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("cli/\(name).json"))) as? [String: Any]
            #expect(manifest?["hash"] as? [String: String] == cliManifest?["hash"] as? [String: String])
            #expect(manifest?["placeholder"] as? [String: String] == cliManifest?["placeholder"] as? [String: String])
        }
    }

    @Test func aRecipeMistakeIsAnInvalidRequest() {
        #expect(throws: MediaError.invalidRequest(file: "recipe", reason: #"the recipe's renditions[0].size: expected a size such as "150" (a 150x150 box), "300x200", "768x" or "x600", found "huge""#)) {
            _ = try MediaIngestRecipe(json: Data(#"{"renditions": [{"name": "a", "size": "huge"}]}"#.utf8))
        }
    }

    /// A damaged upload fails the call and leaves nothing in the folder.
    @Test func aDamagedUploadLeavesNothing() async throws {
        let folder = try RepositoryFixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        await #expect(throws: MediaError.self) {
            _ = try await MediaIngester(configuration: SandboxedCallTests.sandboxed).ingest(KitFixtures.source("pictures/truncated.jpg"), into: folder)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
