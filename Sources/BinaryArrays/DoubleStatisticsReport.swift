import JSON
/// `DoubleStatistics` as text (a `name value` line each) or as one JSON object.
public enum DoubleStatisticsReport {
    public static func text(_ statistics: DoubleStatistics) -> String {
        fields(statistics).map { name, value in
            let shown: String
            switch value {
            case .count(let count): shown = String(count)
            case .value(let value?): shown = ShortestDecimal.string(value)
            case .value(nil): shown = "-"
            }
            return name + String(repeating: " ", count: max(1, 12 - name.count)) + shown
        }.joined(separator: "\n") + "\n"
    }

    public static func json(_ statistics: DoubleStatistics) -> String {
        let members = fields(statistics).map { name, value in
            let shown: String
            switch value {
            case .count(let count): shown = String(count)
            case .value(let value?): shown = JSONNumber.text(value)
            case .value(nil): shown = "null"
            }
            return "\(JSONString.quoted(name)):\(shown)"
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    private enum Field {
        case count(Int)
        /// nil when there is no finite value to describe.
        case value(Double?)
    }

    private static func fields(_ statistics: DoubleStatistics) -> [(String, Field)] {
        [
            ("count", .count(statistics.count)),
            ("finite", .count(statistics.finiteCount)),
            ("min", .value(statistics.minimum)),
            ("max", .value(statistics.maximum)),
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
