import Foundation
import MediaToolKit
import TestSupport

/// The fixtures and the command line, as the library's tests use them.
enum KitFixtures {
    /// A library error's line as the command line prints it: the same words, but for each setting,
    /// which the library names by its API (`maxPixels`) and the tool by its flag (`--max-pixels`).
    static func asTheCommandLineSaysIt(_ line: String) -> String {
        [("(maxPixels)", "(--max-pixels)"), ("(maxMemory)", "(--max-memory)"), ("(clamps ", "(--clamp "),
         ("(allowsTrailingBytes ", "(--allow-trailing ")].reduce(line) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    static func source(_ relative: String) -> MediaSource { .path(RepositoryFixtures.path(relative)) }

    /// The upright picture every orientation fixture shows: 61x41 RGB (`Fixtures/pictures/upright.rgb`).
    static let upright = try! RepositoryFixtures.bytes("pictures/upright.rgb")
    static let uprightWidth = 61, uprightHeight = 41

    /// The colour a quadrant fixture shows at a point: red, green, blue or white.
    static func colourName(_ pixel: [Int]) -> String {
        if pixel.prefix(3).allSatisfy({ $0 > 200 }) { return "white" }
        let strongest = pixel.prefix(3).enumerated().max { $0.element < $1.element }!.offset
        return ["red", "green", "blue"][strongest]
    }

    /// The frame number the counter fixture shows: bit b is the block of 16 pixels at x = 16 b.
    static func frameNumber(_ image: Bitmap) -> Int {
        (0..<8).reduce(0) { number, bit in image.pixel(x: bit * 16 + 8, y: image.height / 2)[0] > 128 ? number | (1 << bit) : number }
    }

    /// The built `mediatool` beside the test bundle, run with a deadline.
    static func tool(_ arguments: [String]) throws -> ChildRun {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("mediatool")
        return try ChildProcess.run(executable.path, arguments)
    }
}
