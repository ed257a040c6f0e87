import Foundation
import MediaToolKit
import Testing
import TestSupport

/// The fixtures and the command line, as the library's tests use them.
enum KitFixtures {
    /// A library error's line as the command line prints it: the same words, but for each setting,
    /// which the library names by its API (`maxPixels`) and the tool by its flag (`--max-pixels`).
    static func asTheCommandLineSaysIt(_ line: String) -> String {
        [("(maxPixels)", "(--max-pixels)"), ("(maxMemory)", "(--max-memory)"), ("(clamps ", "(--clamp "),
         ("(allowsTrailingBytes ", "(--allow-trailing ")].reduce(line) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    /// How long a test waits for something its own calls do (a worker to start, a thread to
    /// block): as `failsIfItHangs` says, each look is a wait for a thread of the parallel suite's,
    /// so the deadline is the suite's, not the call's.
    static let suiteWait = 300.0

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

extension Trait where Self == TimeLimitTrait {
    /// Turns a hang into a failure, and nothing slower. In the parallel suite a test's time holds
    /// each wait for a thread while the other tests run, and for the library's threads and memory
    /// where other suites' calls hold them: under the sanitizers on CI's busy 2-core machine, three
    /// tests of a second or two exceeded a limit of 1 minute. Ten minutes is the whole sanitized
    /// suite's 7.5 there with a third of headroom; what a test proves about time it proves with the
    /// library's own words ("took longer than timeout 1 s"), not with this limit.
    static var failsIfItHangs: Self { .timeLimit(.minutes(10)) }
}
