/// A value in a JSON report line.
public enum JSONValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case null
    case array([JSONValue])

    public var text: String {
        switch self {
        case .string(let value): return JSONString.quoted(value)
        case .int(let value): return String(value)
        case .double(let value): return value.isFinite ? JSONNumber.text(value) : "null"
        case .null: return "null"
        case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
        }
    }
}
