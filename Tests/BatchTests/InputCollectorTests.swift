import Batch
import Foundation
import Testing

@Suite struct InputCollectorTests {
    /// A folder tree: a/1.png a/2.JPG a/x.txt a/.hidden.png a/sub/3.png b.png, and a list file.
    static func tree() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString)")
        for path in ["a/1.png", "a/2.JPG", "a/x.txt", "a/.hidden.png", "a/sub/3.png", "b.png", "a/.3.png.mediatool-tmp-1-x-h"] {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: file)
        }
        return root
    }

    static func collect(_ arguments: [String], recursive: Bool = false, include: String? = nil, listFile: String? = nil) throws -> [String] {
        var selection = InputSelection(extensions: ["png", "jpg"])
        selection.recursive = recursive
        selection.includePattern = include
        return try InputCollector.collect(arguments: arguments, listFile: listFile, selection: selection).map(\.relativePath)
    }

    @Test func foldersGiveTheirFormatsInNameOrder() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let a = root.appendingPathComponent("a").path
        #expect(try Self.collect([a]) == ["1.png", "2.JPG"])
        #expect(try Self.collect([a], recursive: true) == ["1.png", "2.JPG", "sub/3.png"])
        #expect(try Self.collect([a], recursive: true, include: "*.txt") == ["x.txt"])
        // A file named is taken whatever it is; a path twice is taken once.
        let text = root.appendingPathComponent("a/x.txt").path
        #expect(try Self.collect([text, a, text]) == ["x.txt", "1.png", "2.JPG"])
    }

    @Test func aListFileAddsPaths() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let list = root.appendingPathComponent("list.txt")
        try Data("\(root.path)/b.png\r\n\n\(root.path)/a/sub/3.png\n".utf8).write(to: list)
        #expect(try Self.collect([], listFile: list.path) == ["b.png", "3.png"])
    }

    @Test func shardsAreDisjointAndComplete() throws {
        let inputs = (0..<1000).map { BatchInput(path: "/data/\($0).png", relativePath: "\($0).png") }
        for count in [1, 2, 3, 7] {
            let shards = (0..<count).map { Shard(parsing: "\($0)/\(count)")! }
            let parts = shards.map { shard in inputs.filter(shard.contains) }
            #expect(parts.map(\.count).reduce(0, +) == inputs.count)
            #expect(Set(parts.flatMap { $0 }) == Set(inputs))
            if count > 1 { #expect(parts.allSatisfy { $0.count > 1000 / count / 2 }) }
        }
        // The same input lands in the same shard wherever its folder is mounted.
        let here = BatchInput(path: "/mnt/a/clip.mp4", relativePath: "x/clip.mp4")
        let there = BatchInput(path: "/data/x/clip.mp4", relativePath: "x/clip.mp4")
        #expect((0..<4).map { Shard(parsing: "\($0)/4")!.contains(here) } == (0..<4).map { Shard(parsing: "\($0)/4")!.contains(there) })
        for bad in ["4/4", "-1/4", "1/0", "1", "a/b", "1/2/3"] { #expect(Shard(parsing: bad) == nil) }
    }

    @Test func outputPlans() throws {
        let input = BatchInput(path: "/in/trip/day1/clip.MOV", relativePath: "day1/clip.MOV")
        #expect(OutputPlan(template: "{stem}.thumb.png").output(for: input) == "/in/trip/day1/clip.thumb.png")
        #expect(OutputPlan(directory: "out", template: "{stem}.thumb.png").output(for: input) == "out/day1/clip.thumb.png")
        #expect(OutputPlan(directory: "out/", template: "{dir}-{stem}.{ext}.png").output(for: input) == "out/day1/day1-clip.MOV.png")
        #expect(OutputPlan(explicitPath: "x.png", template: "{stem}").output(for: input) == "x.png")
        let bare = BatchInput(path: "clip.mp4", relativePath: "clip.mp4")
        #expect(OutputPlan(template: "{stem}.thumb.png").output(for: bare) == "clip.thumb.png")
        // A stranger's file name is put in as it is: its braces are not read as placeholders.
        let braces = BatchInput(path: "up/a{ext}{dir}.jpg", relativePath: "a{ext}{dir}.jpg")
        #expect(OutputPlan(directory: "out", template: "{stem}.{ext}.json").output(for: braces) == "out/a{ext}{dir}.jpg.json")
        // An ingest's variant is a whole name, whose placeholders are the input's.
        var ingest = OutputPlan(directory: "out", template: "{size}")
        ingest.variants = ["{stem}.{ext}.medium.jpg"]
        #expect(ingest.output(for: braces) == "out/a{ext}{dir}.jpg.medium.jpg")
    }

    @Test func collisionsAreRefusedUpFront() {
        let plan = OutputPlan(directory: "out", template: "{stem}.png")
        let inputs = [BatchInput(path: "a/x.mp4", relativePath: "x.mp4"), BatchInput(path: "b/x.mkv", relativePath: "x.mkv")]
        #expect(throws: OutputPlanError.collision(output: "out/x.png", first: "a/x.mp4", second: "b/x.mkv", remedy: OutputPlan.nameRemedy)) { try plan.check(inputs) }
    }
}
