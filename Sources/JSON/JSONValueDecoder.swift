/// Any `Decodable` from a `JSONValue` tree (`JSONValueEncoder`'s): every type is checked, and a
/// member named twice, a number past its type's range or a missing key is an error, not a guess.
public enum JSONValueDecoder {
    public static func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue) throws -> Value {
        try decode(type, value, at: [])
    }

    fileprivate static func decode<Value: Decodable>(_ type: Value.Type, _ value: JSONValue, at path: [any CodingKey]) throws -> Value {
        if let leaf = try leaf(type, value, at: path) { return leaf }
        return try Value(from: TreeDecoder(value: value, codingPath: path))
    }

    /// A standard type read from its leaf; nil for a type that decodes itself.
    private static func leaf<Value>(_ type: Value.Type, _ value: JSONValue, at path: [any CodingKey]) throws -> Value? {
        func mismatch(_ expected: String) -> DecodingError {
            DecodingError.typeMismatch(type, DecodingError.Context(codingPath: path, debugDescription: "expected \(expected), found \(value.kind)"))
        }
        switch type {
        case is String.Type:
            switch value {
            case .text(let text), .string(let text): return text as? Value
            default: throw mismatch("a string")
            }
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw mismatch("true or false") }
            return flag as? Value
        case is Double.Type:
            switch value {
            case .double(let number): return number as? Value
            case .float(let number): return Double(number) as? Value
            case .int(let number): return Double(number) as? Value
            default: throw mismatch("a number")
            }
        case is Float.Type:
            switch value {
            case .float(let number): return number as? Value
            case .double(let number): return Float(number) as? Value
            default: throw mismatch("a number")
            }
        case let integer as any BinaryInteger.Type:
            guard case .int(let number) = value else { throw mismatch("an integer") }
            guard let exact = integer.init(exactly: number) else { throw mismatch("an integer in \(type)'s range") }
            return exact as? Value
        default:
            return nil
        }
    }
}

extension JSONValue {
    /// What the value is, for messages.
    var kind: String {
        switch self {
        case .string, .text: return "a string"
        case .int: return "an integer"
        case .double, .float: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

private struct TreeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw DecodingError.typeMismatch([String: Any].self, DecodingError.Context(codingPath: codingPath, debugDescription: "expected an object, found \(value.kind)"))
        }
        var byName: [String: JSONValue] = [:]
        for member in members {
            guard byName.updateValue(member.value, forKey: member.name) == nil else {
                throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: "'\(member.name)' given twice"))
            }
        }
        return KeyedDecodingContainer(KeyedReader<Key>(members: byName, order: members.map(\.name), codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let values) = value else {
            throw DecodingError.typeMismatch([Any].self, DecodingError.Context(codingPath: codingPath, debugDescription: "expected an array, found \(value.kind)"))
        }
        return UnkeyedReader(values: values, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleReader(value: value, codingPath: codingPath)
    }
}

private struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let order: [String]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { order.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "'\(key.stringValue)' is missing"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        try JSONValueDecoder.decode(type, member(key), at: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try TreeDecoder(value: member(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(value: member(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { TreeDecoder(value: members["super"] ?? .null, codingPath: codingPath) }

    func superDecoder(forKey key: Key) throws -> any Decoder { TreeDecoder(value: try member(key), codingPath: codingPath + [key]) }
}

private struct UnkeyedReader: UnkeyedDecodingContainer {
    let values: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { values.count }
    var isAtEnd: Bool { currentIndex >= values.count }

    private mutating func next() throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(JSONValue.self, DecodingError.Context(codingPath: codingPath, debugDescription: "past the array's \(values.count) values"))
        }
        defer { currentIndex += 1 }
        return values[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, values[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try JSONValueDecoder.decode(type, next(), at: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try TreeDecoder(value: next(), codingPath: codingPath).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(value: next(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { TreeDecoder(value: try next(), codingPath: codingPath) }
}

private struct SingleReader: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try JSONValueDecoder.decode(type, value, at: codingPath)
    }
}
