import MediaIO

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
        case .double(let value): return value.isFinite ? "\(value)" : "null"
        case .null: return "null"
        case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
        }
    }
}

/// What a job learned about its input, for the JSON report: named values in order.
public struct JobReport: Sendable {
    public var fields: [(name: String, value: JSONValue)]
    /// Things done other than asked, one line each.
    public var warnings: [String]

    public init(fields: [(name: String, value: JSONValue)] = [], warnings: [String] = []) {
        self.fields = fields
        self.warnings = warnings
    }
}
