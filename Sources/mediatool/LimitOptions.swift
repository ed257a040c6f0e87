import ArgumentParser
import FileIO
import Imaging
import Sandbox

/// How large an input a run decodes: crop, thumbnail and storyboard share these.
struct LimitOptions: ParsableArguments {
    @Option(help: "Refuse pictures and video frames (cover art included) with more pixels than this, from their header.")
    var maxPixels: Int = DecodeLimits.defaultMaxPixels

    @Option(help: ArgumentHelp("Refuse inputs whose decoding would take more memory than this (e.g. 512M, 2G), known before any allocation.", valueName: "size"))
    var maxMemory = ByteCount(DecodeLimits.defaultMaxMemory)

    @Option(help: ArgumentHelp("Refuse a stream (standard input, a pipe or a FIFO) that sends more than this (e.g. 2G); it is copied to a temporary file to be read, and the copy is removed at once. Files are never held to it.", valueName: "size"))
    var maxInputSize = ByteCount(StreamLimits.defaultMaxSize)

    func validate() throws {
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be 1 or more.") }
    }

    /// The limits of a run: one budget its jobs share (call once per run).
    func runLimits() -> DecodeLimits {
        DecodeLimits(maxPixels: maxPixels, maxMemory: maxMemory.bytes, budget: runBudget())
    }

    /// The run's memory budget, which its jobs in this process share (a sandboxed run's workers
    /// share the parent's, `SandboxSettings.budget`).
    func runBudget() -> MemoryBudget {
        MemoryBudget(total: maxMemory.bytes)
    }
}
