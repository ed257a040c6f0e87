import JSON
import NumberText
/// `DoubleStatistics` as text (a `name value` line each) or as one JSON object. `type`: what the
/// values were, so that the minimum and maximum, which are values of the array, print as the dump
/// prints them: integers as integers (`-3`, not `-3.0`), f32/f16/bf16 by their own shortest digits
/// (`0.2`, not the `0.20000000298023224` of the double they widen to).
public enum DoubleStatisticsReport {
    public static func text(_ statistics: DoubleStatistics, type: ElementType = .f64) -> String {
        fields(statistics, type: type).map { name, value in
            let shown: String
            switch value {
            case .count(let count): shown = String(count)
            case .integer(let value): shown = String(value)
            case .value(let value?): shown = ShortestDecimal.string(value)
            case .float(let value): shown = ShortestDecimal.string(value)
            case .value(nil): shown = "-"
            }
            return name + String(repeating: " ", count: max(1, 12 - name.count)) + shown
        }.joined(separator: "\n") + "\n"
    }

    public static func json(_ statistics: DoubleStatistics, type: ElementType = .f64) -> JSONValue {
        .object(fields(statistics, type: type).map { name, value in
            switch value {
            case .count(let count): return JSONMember(name, .int(count))
            case .integer(let value): return JSONMember(name, .int(Int(value)))
            case .value(let value?): return JSONMember(name, .double(value))
            case .float(let value): return JSONMember(name, .float(value))
            case .value(nil): return JSONMember(name, .null)
            }
        })
    }

    private enum Field {
        case count(Int)
        case integer(Int64)
        /// A finite value of a narrower floating-point type.
        case float(Float)
        /// nil when there is no finite value to describe.
        case value(Double?)
    }

    private static func fields(_ statistics: DoubleStatistics, type: ElementType) -> [(String, Field)] {
        func extreme(_ value: Double?) -> Field {
            guard let value else { return .value(nil) }
            switch type {
            case .f64: return .value(value)
            // Every f32, f16 and bf16 value is a Float, and widened to a double exactly.
            case .f32, .f16, .bf16: return .float(Float(value))
            // Exact below 2^53, where every integer is a double; past it, the double's digits.
            default: return value.magnitude <= 9_007_199_254_740_992 ? .integer(Int64(value)) : .value(value)
            }
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
