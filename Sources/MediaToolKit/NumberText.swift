internal import NumberText

/// The shortest decimal that reads back as exactly `value`: `0.1`, `100000000.0`, `1e+300`, `-0.0`,
/// `nan`, `inf`. The text `dump-doubles` prints, made by its own routine; it spells every value as
/// Swift's `description` does, so text written by either reads the same.
public func shortestRoundTripText(_ value: Double) -> String { ShortestDecimal.string(value) }

/// The same for a `Float`: the shortest decimal that reads back as exactly it, as a float.
public func shortestRoundTripText(_ value: Float) -> String { ShortestDecimal.string(value) }
