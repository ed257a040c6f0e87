import JSON
/// `DoubleStatistics` as text (a `name value` line each) or as one JSON object. `integral`: the
/// values were integers, so the minimum and maximum print as integers (`-3`, not `-3.0`).
public enum DoubleStatisticsReport {
    public static func text(_ statistics: DoubleStatistics, integral: Bool = false) -> String {
        fields(statistics, integral: integral).map { name, value in
            let shown: String
            switch value {
            case .count(let count): shown = String(count)
            case .integer(let value): shown = String(value)
            case .value(let value?): shown = ShortestDecimal.string(value)
            case .value(nil): shown = "-"
            }
            return name + String(repeating: " ", count: max(1, 12 - name.count)) + shown
        }.joined(separator: "\n") + "\n"
    }

    public static func json(_ statistics: DoubleStatistics, integral: Bool = false) -> String {
        let members = fields(statistics, integral: integral).map { name, value in
            let shown: String
            switch value {
            case .count(let count): shown = String(count)
            case .integer(let value): shown = String(value)
            case .value(let value?): shown = JSONNumber.text(value)
            case .value(nil): shown = "null"
            }
            return "\(JSONString.quoted(name)):\(shown)"
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    private enum Field {
        case count(Int)
        case integer(Int64)
        /// nil when there is no finite value to describe.
        case value(Double?)
    }

    private static func fields(_ statistics: DoubleStatistics, integral: Bool) -> [(String, Field)] {
        // Exact below 2^53, where every integer is a double; past it, the double's digits.
        func extreme(_ value: Double?) -> Field {
            guard integral, let value, value.magnitude <= 9_007_199_254_740_992 else { return .value(value) }
            return .integer(Int64(value))
        }
        return [
            ("count", .count(statistics.count)),
            ("finite", .count(statistics.finiteCount)),
            ("min", extreme(statistics.minimum)),
            ("max", extreme(statistics.maximum)),
            ("mean", .value(statistics.mean)),
            ("stddev", .value(statistics.standardDeviation)),
            ("nan", .count(statistics.nanCount)),
            ("pos_inf", .count(statistics.positiveInfinityCount)),
            ("neg_inf", .count(statistics.negativeInfinityCount)),
            ("zeros", .count(statistics.zeroCount)),
            ("subnormals", .count(statistics.subnormalCount)),
        ]
    }
}
