import Foundation
import TestSupport

/// One run of the built `mediatool` executable: what it printed and how it exited.
struct ToolRun {
    let status: Int32
    let standardOutput: Data
    let standardError: String

    var output: String { String(decoding: standardOutput, as: UTF8.self) }
    var errorLines: [String] { standardError.split(separator: "\n").map(String.init) }

    /// The executable beside this test bundle: `swift build` puts both in one folder.
    static let executable: URL = {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("mediatool")
    }()

    /// `launcher`: a command that runs mediatool (`taskset -c 0`); `environment`: variables added.
    /// Past `deadline` seconds the run is killed and the test fails (`ChildProcess`).
    static func run(_ arguments: [String], input: Data? = nil, in directory: URL? = nil,
                    launcher: [String] = [], environment: [String: String] = [:],
                    deadline: Double = ChildProcess.defaultDeadline) throws -> ToolRun {
        let command = launcher.isEmpty ? [executable.path] + arguments : ["/usr/bin/env"] + launcher + [executable.path] + arguments
        let run = try ChildProcess.run(command[0], Array(command.dropFirst()), input: input, directory: directory,
                                       environment: environment, deadline: deadline)
        return ToolRun(status: run.status, standardOutput: run.standardOutput,
                       standardError: String(decoding: run.standardError, as: UTF8.self))
    }
}

/// Files of the repository's Fixtures folder, and scratch folders for outputs.
enum Fixture {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    static func text(_ relative: String) throws -> String { try String(contentsOfFile: path(relative), encoding: .utf8) }

    static func data(_ relative: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(relative))) }

    /// A copy of a fixture at `path`, which the test may change or name as it likes.
    static func copy(_ relative: String, to path: URL) throws {
        try FileManager.default.copyItem(atPath: Fixture.path(relative), toPath: path.path)
    }

    /// The rect of the upright picture every orientation fixture shows (pictures/upright.rgb, 61
    /// wide), as RGB bytes.
    static func uprightRect(x: Int, y: Int, width: Int, height: Int) throws -> [UInt8] {
        try rect(of: [UInt8](data("pictures/upright.rgb")), pictureWidth: 61, bytesPerPixel: 3, x: x, y: y, width: width, height: height)
    }

    /// The rect of a packed picture's bytes.
    static func rect(of bytes: [UInt8], pictureWidth: Int, bytesPerPixel: Int, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        var rect: [UInt8] = []
        for row in y..<(y + height) {
            let start: Int = (row * pictureWidth + x) * bytesPerPixel
            rect += bytes[start..<(start + width * bytesPerPixel)]
        }
        return rect
    }

    /// A new empty folder, removed by the caller's `defer`.
    static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("mediatool-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// A file name in a scratch folder of its own, removed with the folder when this goes away.
final class ScratchOutput {
    let folder: URL
    let path: String

    init(_ name: String) throws {
        folder = try Fixture.scratchFolder()
        path = folder.appendingPathComponent(name).path
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }
}
