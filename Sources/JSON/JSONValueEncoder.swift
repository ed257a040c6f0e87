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

/// A value being built: unset until a container or a single value is given to it.
private final class Node {
    enum Content {
        case unset
        case leaf(JSONValue)
        case object([(key: String, node: Node)])
        case array([Node])
    }

    var content = Content.unset

    var value: JSONValue {
        switch content {
        case .unset: return .object([])
        case .leaf(let value): return value
        case .object(let members): return .object(members.map { JSONMember($0.key, $0.node.value) })
        case .array(let nodes): return .array(nodes.map(\.value))
        }
    }

    /// A new member (or the one of that key, encoded again).
    func member(_ key: String) -> Node {
        var members: [(key: String, node: Node)] = []
        if case .object(let existing) = content { members = existing }
        if let found = members.first(where: { $0.key == key }) { return found.node }
        let node = Node()
        members.append((key, node))
        content = .object(members)
        return node
    }

    func element() -> Node {
        var nodes: [Node] = []
        if case .array(let existing) = content { nodes = existing }
        let node = Node()
        nodes.append(node)
        content = .array(nodes)
        return node
    }

    var count: Int {
        if case .array(let nodes) = content { return nodes.count }
        return 0
    }
}

private struct TreeEncoder: Encoder {
    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(KeyedWriter<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedWriter(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleWriter(node: node, codingPath: codingPath)
    }
}

/// The leaf of a value of a standard type; nil for a type that encodes itself.
private func leaf<Value: Encodable>(_ value: Value, at path: [any CodingKey]) throws -> JSONValue? {
    switch value {
    case let text as String: return .text(text)
    case let path as JSONPath: return .string(path.value)
    case let flag as Bool: return .bool(flag)
    case let number as Double: return .double(number)
    case let number as Float: return .float(number)
    case let number as Int: return .int(number)
    case let number as any BinaryInteger:
        guard let exact = Int(exactly: number) else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: "an integer past Int's range"))
        }
        return .int(exact)
    default: return nil
    }
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
