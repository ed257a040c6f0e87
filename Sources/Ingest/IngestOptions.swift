import FileIO
import Imaging

/// How `ingest` runs: its recipe, and the run's limits and output policy.
public struct IngestOptions: Sendable, Codable {
    public var recipe: IngestRecipe
    /// The largest picture or frame decoded, by pixels and by the memory it would take.
    public var limits = DecodeLimits()
    public var output = OutputPolicy(overwrite: false)
    /// `gps` in the manifest's probe fields (`--location keep`; left out by default, as from every output).
    public var includesGPS = false
    /// Threads of one input's work; 0 for every core.
    public var threads = 0

    public init(recipe: IngestRecipe) {
        self.recipe = recipe
    }
}
