import ArgumentParser

/// Whether the place a photo or video was taken stays in what a subcommand writes or reports.
enum LocationChoice: String, ExpressibleByArgument, CaseIterable {
    case keep, remove
}

/// `--location`, one flag for every subcommand that could carry the position: no output carries
/// it unless `--location keep`; probe reports it unless `--location remove`.
struct LocationOption: ParsableArguments {
    @Option(help: ArgumentHelp("Where it was taken (GPS, XMP and IPTC places, QuickTime's ISO 6709): kept or removed. Outputs leave it out unless 'keep'; probe reports it unless 'remove'.", valueName: "keep|remove"))
    var location: LocationChoice?

    /// The flag of earlier versions, the same as `--location remove`.
    @Flag(name: .customLong("no-gps"), help: .hidden)
    var noGPS = false

    func validate() throws {
        if noGPS && location == .keep { throw ValidationError("--no-gps and --location keep contradict each other.") }
    }

    /// Whether the position stays, where `byDefault` is the subcommand's default.
    func keeps(byDefault: Bool) -> Bool {
        noGPS ? false : location.map { $0 == .keep } ?? byDefault
    }
}
