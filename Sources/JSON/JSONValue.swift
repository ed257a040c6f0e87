import NumberText

/// A value in a JSON report line.
public enum JSONValue: Sendable, Equatable {
    /// A path, or text that holds paths (an error): a byte of a name that is not UTF-8 is written
    /// as a lone surrogate (see `JSONString.quoted`).
    case string(String)
    /// Text read from a file (a camera's make, a codec's name): every scalar written as itself,
    /// U+10FF80 to U+10FFFF too, which in a path would stand for a byte.
    case text(String)
    case int(Int)
    case double(Double)
    /// A Float by its own shortest digits (0.2, not the 0.20000000298023224 of the double it widens to).
    case float(Float)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Members in order (a report's order is part of its readability).
    case object([JSONMember])

    public var text: String {
        switch self {
        case .string(let value): return JSONString.quoted(value)
        case .text(let value): return JSONString.quoted(value, escapingPathBytes: false)
        case .int(let value): return String(value)
        case .double(let value): return value.isFinite ? JSONNumber.text(value) : "null"
        case .float(let value): return value.isFinite ? ShortestDecimal.string(value) : "null"
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { JSONString.quoted($0.name) + ":" + $0.value.text }.joined(separator: ",") + "}"
        }
    }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Equatable {
    public let name: String
    public let value: JSONValue

    public init(_ name: String, _ value: JSONValue) {
        self.name = name
        self.value = value
    }
}
