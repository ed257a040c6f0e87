import ArgumentParser
import FFmpeg

/// The times the user types (`35.2`, `1:02.5`, `10%`), parsed once, as the options are read: a
/// wrong one says what a right one looks like, and the job is given the typed value.
enum TimeArguments {
    /// Seconds, a timestamp or a share of the duration.
    @Sendable static func time(_ text: String) throws -> TimeSpec {
        guard let time = TimeSpec(parsing: text) else {
            throw ValidationError("it takes seconds (35.2), a timestamp (1:02.5) or a percentage (10%)")
        }
        return time
    }

    /// A length of time above 0: seconds or a timestamp, no share.
    @Sendable static func step(_ text: String) throws -> Double {
        guard case .seconds(let step)? = TimeSpec(parsing: text), step > 0 else {
            throw ValidationError("it takes a time above 0: seconds (10, 10s) or [[h:]m:]s")
        }
        return step
    }
}
