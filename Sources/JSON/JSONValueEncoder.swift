/// Any `Encodable` as a `JSONValue` tree: how a job's typed options travel to a sandboxed worker
/// (without Foundation, which a worker would pay to load). Strings stay verbatim (`.text`), a `JSONPath` as the batch writes paths (`.string`),
/// integers `.int`, floating point `.double` or `.float`; an integer past `Int` is refused.
public enum JSONValueEncoder {
    public static func encode<Value: Encodable>(_ value: Value) throws -> JSONValue {
        let root = Node()
        try value.encode(to: TreeEncoder(node: root, codingPath: []))
        return root.value
    }
}

/// A value being built: unset until a container or a single value is given to it. Members and
/// elements are kept in arrays of the node's own, appended to in place, and members found by
/// their key through an index: a probe line's 41 members were copied and searched anew at each.
private final class Node {
    enum Content {
        case unset
        case leaf(JSONValue)
        case object
        case array
    }

    var content = Content.unset
    private var members: [(key: String, node: Node)] = []
    private var memberIndex: [String: Int] = [:]
    private var elements: [Node] = []

    var value: JSONValue {
        switch content {
        case .unset: return .object([])
        case .leaf(let value): return value
        case .object: return .object(members.map { JSONMember($0.key, $0.node.value) })
        case .array: return .array(elements.map(\.value))
        }
    }

    /// Makes this node an object, keeping the members it has.
    func beObject() {
        if case .object = content { return }
        content = .object
        members = []
        memberIndex = [:]
    }

    /// Makes this node an array, keeping the elements it has.
    func beArray() {
        if case .array = content { return }
        content = .array
        elements = []
    }

    /// A new member (or the one of that key, encoded again).
    func member(_ key: String) -> Node {
        beObject()
        if let found = memberIndex[key] { return members[found].node }
        let node = Node()
        memberIndex[key] = members.count
        members.append((key, node))
        return node
    }

    func element() -> Node {
        beArray()
        let node = Node()
        elements.append(node)
        return node
    }

    var count: Int { elements.count }
}

private struct TreeEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.beObject()
        return KeyedEncodingContainer(KeyedWriter<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.beArray()
        return UnkeyedWriter(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleWriter(node: node, codingPath: codingPath)
    }
}

/// The standard integers beside `Int`.
private let standardIntegers: Set<ObjectIdentifier> = [Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self,
                                                        UInt16.self, UInt32.self, UInt64.self].map { ObjectIdentifier($0) }.reduce(into: []) { $0.insert($1) }

/// The leaf of a value of a standard type; nil for a type that encodes itself. The common types
/// are told by their type alone, before any dynamic cast (a cast to an existential looks the
/// type's conformances up: the most of a probe line's time went there).
private func leaf<Value: Encodable>(_ value: Value, at path: [any CodingKey]) throws -> JSONValue? {
    if Value.self == String.self { return .text(unsafeBitCast(value, to: String.self)) }
    if Value.self == Int.self { return .int(unsafeBitCast(value, to: Int.self)) }
    if Value.self == Double.self { return .double(unsafeBitCast(value, to: Double.self)) }
    if Value.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
    if Value.self == JSONPath.self { return .string((value as! JSONPath).value) }
    if Value.self == Float.self { return .float(unsafeBitCast(value, to: Float.self)) }
    // The other standard integers (each of which encodes itself as itself: it must end here);
    // composite values (structs, arrays, optionals) encode themselves, with no cast.
    guard standardIntegers.contains(ObjectIdentifier(Value.self)), let number = value as? any BinaryInteger else { return nil }
    guard let exact = Int(exactly: number) else {
        throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: "an integer past Int's range"))
    }
    return .int(exact)
}

private func encode<Value: Encodable>(_ value: Value, into node: Node, at path: [any CodingKey]) throws {
    if let leaf = try leaf(value, at: path) {
        node.content = .leaf(leaf)
    } else {
        try value.encode(to: TreeEncoder(node: node, codingPath: path))
    }
}

private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).content = .leaf(.null) }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try JSON.encode(value, into: node.member(key.stringValue), at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.member("super"), codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedWriter: UnkeyedEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    mutating func encodeNil() throws { node.element().content = .leaf(.null) }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        try JSON.encode(value, into: node.element(), at: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        TreeEncoder(node: node.element(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        TreeEncoder(node: node.element(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.element(), codingPath: codingPath) }
}

private struct SingleWriter: SingleValueEncodingContainer {
    let node: Node
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .leaf(.null) }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        try JSON.encode(value, into: node, at: codingPath)
    }
}
