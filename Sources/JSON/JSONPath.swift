/// A path in a typed value: `JSONValueEncoder` writes it as the batch writes its own paths
/// (`JSONValue.string`: a byte of a name that is not UTF-8 as the lone surrogate Python's
/// `os.fsencode` reads back), where a `String` is text read from a file (`JSONValue.text`).
public struct JSONPath: Codable, Sendable, Equatable {
    public let value: String

    public init(_ value: String) {
        self.value = value
    }

    public init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
