internal import NumberText

/// The shortest decimal that reads back as exactly `value` (`dump-doubles`'s numbers): `0.1`,
/// `1e+300`, `-0`, `nan`, `inf`. Swift's `description` round-trips too, but spells some values
/// otherwise (`1e+300` as `1e+300`, `100000000.0` as `100000000.0`); this is the command line's text.
public func shortestRoundTripText(_ value: Double) -> String { ShortestDecimal.string(value) }

/// The same for a `Float`: the shortest decimal that reads back as exactly it, as a float.
public func shortestRoundTripText(_ value: Float) -> String { ShortestDecimal.string(value) }
