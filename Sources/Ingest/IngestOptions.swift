import FileIO
import Imaging

/// How `ingest` runs: its recipe, and the run's limits and output policy.
public struct IngestOptions: Sendable, Codable {
    public var recipe: IngestRecipe
    /// The largest picture or frame decoded, by pixels and by the memory it would take.
    public var limits = DecodeLimits()
    public var output = OutputPolicy(overwrite: false)
    /// `gps` in the manifest's probe fields (`--no-gps` leaves the position out).
    public var includesGPS = true
    /// Threads of one input's work; 0 for every core.
    public var threads = 0

    public init(recipe: IngestRecipe) {
        self.recipe = recipe
    }
}
