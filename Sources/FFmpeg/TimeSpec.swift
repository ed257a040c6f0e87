/// A time in a video: seconds from its first frame, or a share of its duration.
public enum TimeSpec: Sendable, Codable, Equatable, CustomStringConvertible {
    case seconds(Double)
    /// 0 to 1: `10%` is 0.1.
    case fraction(Double)

    /// The latest time taken: 30 years, far past any video and far from the limits of the
    /// integer timestamps it becomes.
    public static let maxSeconds = 1e9

    /// Reads `35`, `35.2`, `35s`, `1:02.5`, `00:01:02.500` or `10%`; nil for anything else, and for times
    /// past `maxSeconds` (found by fuzzing: 365 digits read as infinity, which trapped).
    public init?(parsing text: String) {
        if text.hasSuffix("%") {
            guard let percent = Self.number(text.dropLast()), percent <= 100 else { return nil }
            self = .fraction(percent / 100)
            return
        }
        if text.hasSuffix("s") {
            guard let seconds = Self.number(text.dropLast()), seconds <= Self.maxSeconds else { return nil }
            self = .seconds(seconds)
            return
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            // Hours and minutes are whole; minutes and seconds after a colon are below 60.
            guard let value = isLast ? Self.number(part) : Self.wholeNumber(part) else { return nil }
            if index > 0 && value >= 60 { return nil }
            total = total * 60 + value
        }
        guard total <= Self.maxSeconds else { return nil }
        self = .seconds(total)
    }

    public var description: String {
        switch self {
        case .seconds(let seconds): return "\(seconds) s"
        case .fraction(let fraction): return "\(fraction * 100)%"
        }
    }

    /// A plain non-negative decimal: digits, at most one point, no sign, no exponent.
    private static func number(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              text.filter({ $0 == "." }).count <= 1, text != "." else { return nil }
        return Double(text)
    }

    private static func wholeNumber(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Double(text)
    }
}
