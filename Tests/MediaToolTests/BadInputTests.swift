import Foundation
import Testing
import TestSupport

/// The corrupt-input corpus (Fixtures/bad, made by scripts/fixtures/bad.py): each file's exit status
/// and one line on standard error, no output for a failure, and an answer in well under 2 seconds.
@Suite struct BadInputTests {
    struct Case: Sendable, CustomStringConvertible {
        let file: String
        let status: Int32
        let line: String
        let extraArguments: [String]
        var description: String { file }
    }

    static let cases: [Case] = {
        let text = (try? Fixture.text("bad/cases.tsv")) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { row in
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Case(file: fields[0], status: Int32(fields[1])!, line: fields.count > 2 ? fields[2] : "",
                        extraArguments: fields.count > 3 ? fields[3].split(separator: " ").map(String.init) : [])
        }
    }()

    /// Every file of Fixtures/bad is a row of the table, and every row a file: none is left untested.
    @Test func theCorpusIsThere() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixture.path("bad")).filter { $0 != "cases.tsv" }
        #expect(Set(Self.cases.map(\.file)) == Set(files))
    }

    @Test(arguments: cases)
    func eachBadInputGivesOneClearLine(testCase: Case) throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = Fixture.path("bad/\(testCase.file)")
        let output = folder.appendingPathComponent("out.png").path
        let isPicture = ["png", "jpeg", "heic", "avif", "webp", "tiff"].contains { testCase.file.hasPrefix($0) } || testCase.file.hasSuffix(".jpg")
        let arguments = isPicture ? ["crop", "--rect", "0,0,8,8"] : ["thumbnail", "--at", "0.5"]
        // A hang fails by the run's deadline (60 s, far beyond any of these even under the sanitizers).
        let run = try ToolRun.run(arguments + testCase.extraArguments + [input, "-o", output], deadline: 60)
        #expect(run.status == testCase.status)
        let expected = testCase.line.isEmpty ? [] : [testCase.line.replacingOccurrences(of: "{}", with: input)]
        #expect(run.errorLines == expected)
        if testCase.status == 0 {
            let picture = try DecodedPNG(path: output)
            #expect(picture.width > 0 && picture.height > 0)
        } else {
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
        }
    }

    @Test func brokenCuesStillGiveTheExactFrame() throws {
        let folder = try Fixture.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.png").path
        #expect(try ToolRun.run(["thumbnail", "--at", "0.7", Fixture.path("bad/mkv-broken-cues.mkv"), "-o", output]).status == 0)
        let picture = try DecodedPNG(path: output)
        let frame = (0..<8).reduce(0) { $0 | (picture.pixel(x: $1 * 16 + 8, y: 8)[0] > 128 ? 1 << $1 : 0) }
        #expect(frame == 17)
    }
}
