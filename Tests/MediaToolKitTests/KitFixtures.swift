import Foundation
import MediaToolKit
import TestSupport

/// The fixtures and the command line, as the library's tests use them.
enum KitFixtures {
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
