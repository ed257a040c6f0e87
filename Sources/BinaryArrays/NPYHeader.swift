import FileIO
import Failures

/// Why a `.npy` file cannot be read.
public enum NPYError: Error, Equatable, CustomStringConvertible {
    case notNPY
    case unsupportedVersion(Int)
    case malformedHeader(String)
    case unsupportedType(String)
    case objectArray
    case fortranOrderBeyondTwoDimensions(Int)
    case tooLarge
    /// The shape asks for more data than the file holds.
    case dataTooShort(needed: Int, available: Int)

    public var description: String {
        switch self {
        case .notNPY: return "not a .npy file (no \\x93NUMPY magic)"
        case .unsupportedVersion(let major): return ".npy format version \(major) is not one of 1, 2 and 3"
        case .malformedHeader(let what): return ".npy header: \(what)"
        case .unsupportedType(let descr): return ".npy dtype '\(descr)' is not one of f8 f4 f2 i1 i2 i4 i8 u1 u2 u4 u8 b1 (or a struct of them)"
        case .objectArray: return ".npy holds Python objects (dtype 'O'), not numbers"
        case .fortranOrderBeyondTwoDimensions(let dimensions): return ".npy in Fortran order with \(dimensions) dimensions (1 or 2 are read)"
        case .tooLarge: return ".npy shape is larger than any file"
        case .dataTooShort(let needed, let available):
            return ".npy shape needs \(needed) bytes of data, the file has \(available)"
        }
    }
}

/// The header of a NumPy `.npy` file (format versions 1 to 3): the dtype as a record layout, the
/// shape, the order, and where the data starts.
public struct NPYHeader: Equatable, Sendable {
    public let record: RecordLayout
    public let shape: [Int]
    public let isFortranOrder: Bool
    /// Bytes before the data: magic, version, length and the header text.
    public let dataOffset: Int

    /// Every element (record) of the array.
    public var count: Int { shape.reduce(1, *) }
    /// Records a line when printed: the last dimension of an array of 2 or more, else 1.
    public var columns: Int { shape.count >= 2 && record.fields.count == 1 ? max(1, shape.last!) : 1 }

    /// The longest header read: the format allows 4 GiB, NumPy writes a few hundred bytes.
    static let maxHeaderLength = 1 << 20

    /// Reads the header from the start of `source`, leaving it at the first byte of data.
    public static func read<Source: ByteSource>(from source: inout Source) throws -> NPYHeader {
        var prefix = [UInt8](repeating: 0, count: 10)
        guard try readFully(&source, into: &prefix), Array(prefix[0..<6]) == [0x93] + Array("NUMPY".utf8) else {
            throw NPYError.notNPY
        }
        let major = Int(prefix[6])
        let length: Int
        var offset: Int
        switch major {
        case 1:
            length = Int(prefix[8]) | Int(prefix[9]) << 8
            offset = 10
        case 2, 3:
            var rest = [UInt8](repeating: 0, count: 2)
            guard try readFully(&source, into: &rest) else { throw NPYError.malformedHeader("it ends early") }
            length = Int(prefix[8]) | Int(prefix[9]) << 8 | Int(rest[0]) << 16 | Int(rest[1]) << 24
            offset = 12
        default:
            throw NPYError.unsupportedVersion(major)
        }
        guard length <= maxHeaderLength else { throw NPYError.malformedHeader("\(length) bytes long") }
        var text = [UInt8](repeating: 0, count: length)
        guard try readFully(&source, into: &text) else { throw NPYError.malformedHeader("it ends early") }
        offset += length
        var parser = PythonLiteral(text)
        guard case .dictionary(let entries) = try parser.parseDocument() else {
            throw NPYError.malformedHeader("not a dictionary")
        }
        // NumPy takes a repeated key's last value; a reader taking the first would print other
        // numbers from the same file: a header that says two things is refused.
        var keys: Set<String> = []
        for (key, _) in entries where !keys.insert(key).inserted {
            throw NPYError.malformedHeader("'\(key)' is given more than once")
        }
        // NumPy refuses a header of any other keys ("Header does not contain the correct keys"):
        // a file it cannot read is not read here either.
        for (key, _) in entries where !["descr", "fortran_order", "shape"].contains(key) {
            throw NPYError.malformedHeader("'\(key)' is no key of a .npy header (descr, fortran_order and shape are)")
        }
        func entry(_ key: String) throws -> PythonLiteral.Value {
            guard let value = entries.first(where: { $0.key == key })?.value else { throw NPYError.malformedHeader("no '\(key)'") }
            return value
        }
        guard case .boolean(let fortran) = try entry("fortran_order") else { throw NPYError.malformedHeader("'fortran_order' is not True or False") }
        guard case .tuple(let dimensions) = try entry("shape") else { throw NPYError.malformedHeader("'shape' is not a tuple") }
        var shape: [Int] = []
        var total = 1
        for dimension in dimensions {
            guard case .integer(let size) = dimension, size >= 0 else { throw NPYError.malformedHeader("'shape' holds something else than sizes") }
            let (product, overflow) = total.multipliedReportingOverflow(by: size)
            guard !overflow else { throw NPYError.tooLarge }
            total = product
            shape.append(size)
        }
        let record = try Self.record(of: try entry("descr"))
        guard total.multipliedReportingOverflow(by: record.stride).overflow == false else { throw NPYError.tooLarge }
        if fortran && shape.count > 2 { throw NPYError.fortranOrderBeyondTwoDimensions(shape.count) }
        return NPYHeader(record: record, shape: shape, isFortranOrder: fortran, dataOffset: offset)
    }

    /// A dtype string (`'<f8'`) or a struct's list of `(name, dtype)`, padding (`'|V4'`) skipped over.
    static func record(of descr: PythonLiteral.Value) throws -> RecordLayout {
        switch descr {
        case .string(let text):
            guard let (type, order) = try field(text) else { throw NPYError.unsupportedType(text) }
            return RecordLayout(scalar: type, byteOrder: order)
        case .list(let items):
            var fields: [RecordLayout.Field] = []
            var offset = 0
            for item in items {
                guard case .tuple(let parts) = item, parts.count == 2, case .string(let name) = parts[0],
                      case .string(let text) = parts[1] else {
                    throw NPYError.unsupportedType("\(item)")
                }
                if text.hasPrefix("|V"), let size = Int(text.dropFirst(2)), size > 0, size <= RecordLayout.maxStride {
                    offset += size
                    continue
                }
                guard let (type, order) = try field(text) else { throw NPYError.unsupportedType(text) }
                // As NumPy refuses it: two fields of one name cannot be told apart.
                if fields.contains(where: { $0.name == name }) { throw NPYError.malformedHeader("field '\(name)' occurs more than once") }
                fields.append(RecordLayout.Field(type: type, offset: offset, byteOrder: order, name: name))
                offset += type.size
            }
            guard !fields.isEmpty, offset > 0 else { throw NPYError.unsupportedType("an empty struct") }
            guard offset <= RecordLayout.maxStride else { throw NPYError.unsupportedType("a struct of \(offset) bytes") }
            return RecordLayout(fields: fields, stride: offset)
        default:
            throw NPYError.unsupportedType("\(descr)")
        }
    }

    /// `<f8`, `>i2`, `|u1`: the type and its byte order; nil for one this tool does not read.
    static func field(_ text: String) throws -> (ElementType, ByteOrder)? {
        let characters = Array(text)
        if characters.count >= 2 && characters[1] == "O" { throw NPYError.objectArray }
        guard characters.count >= 3 else { return nil }
        let order: ByteOrder
        switch characters[0] {
        case "<", "|": order = .little
        case ">": order = .big
        case "=": order = .little  // NumPy writes '<' or '>'; '=' is the writer's own order
        default: return nil
        }
        let code = String(characters[1...])
        let types: [String: ElementType] = ["f8": .f64, "f4": .f32, "f2": .f16, "i1": .i8, "i2": .i16, "i4": .i32, "i8": .i64,
                                            "u1": .u8, "u2": .u16, "u4": .u32, "u8": .u64, "b1": .u8]
        return types[code].map { ($0, order) }
    }

    private static func readFully<Source: ByteSource>(_ source: inout Source, into bytes: inout [UInt8]) throws -> Bool {
        var filled = 0
        while filled < bytes.count {
            let read = try bytes.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            if read == 0 { return false }
            filled += read
        }
        return true
    }
}

/// The Python literals a `.npy` header is written in: a dictionary of strings, booleans, integers,
/// tuples and lists, read without running anything.
struct PythonLiteral {
    indirect enum Value: Equatable, CustomStringConvertible {
        case string(String)
        case integer(Int)
        case boolean(Bool)
        case none
        case tuple([Value])
        case list([Value])
        case dictionary([(key: String, value: Value)])

        static func == (lhs: Value, rhs: Value) -> Bool { lhs.description == rhs.description }

        var description: String {
            switch self {
            case .string(let text): return "'\(text)'"
            case .integer(let value): return String(value)
            case .boolean(let value): return value ? "True" : "False"
            case .none: return "None"
            case .tuple(let items): return "(" + items.map(\.description).joined(separator: ", ") + ")"
            case .list(let items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
            case .dictionary(let entries): return "{" + entries.map { "'\($0.key)': \($0.value)" }.joined(separator: ", ") + "}"
            }
        }
    }

    private let bytes: [UInt8]
    private var position = 0
    private static let maxDepth = 16

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() throws -> Value {
        let value = try parseValue(depth: 0)
        skipSpace()
        guard position == bytes.count else { throw NPYError.malformedHeader("text after the dictionary") }
        return value
    }

    private mutating func skipSpace() {
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x09 || bytes[position] == 0x0D {
            position += 1
        }
    }

    private mutating func parseValue(depth: Int) throws -> Value {
        guard depth < Self.maxDepth else { throw NPYError.malformedHeader("nested too deep") }
        skipSpace()
        guard position < bytes.count else { throw NPYError.malformedHeader("it ends early") }
        switch bytes[position] {
        case UInt8(ascii: "'"), UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "("):
            return .tuple(try parseItems(closing: UInt8(ascii: ")"), depth: depth))
        case UInt8(ascii: "["):
            return .list(try parseItems(closing: UInt8(ascii: "]"), depth: depth))
        case UInt8(ascii: "{"):
            position += 1
            var entries: [(key: String, value: Value)] = []
            while true {
                skipSpace()
                guard position < bytes.count else { throw NPYError.malformedHeader("it ends early") }
                if bytes[position] == UInt8(ascii: "}") { position += 1; return .dictionary(entries) }
                guard case .string(let key) = try parseValue(depth: depth + 1) else { throw NPYError.malformedHeader("a key is not a string") }
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw NPYError.malformedHeader("no ':' after '\(key)'") }
                position += 1
                entries.append((key, try parseValue(depth: depth + 1)))
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: ",") { position += 1 }
            }
        default:
            var word = ""
            while position < bytes.count, let scalar = Optional(Unicode.Scalar(bytes[position])),
                  scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "L" {
                word.unicodeScalars.append(scalar)
                position += 1
            }
            switch word {
            case "True": return .boolean(true)
            case "False": return .boolean(false)
            case "None": return .none
            default:
                // Python 2 wrote long integers with an L.
                guard let value = Int(word.hasSuffix("L") ? String(word.dropLast()) : word) else {
                    throw NPYError.malformedHeader("unexpected '\(word.isEmpty ? String(UnicodeScalar(bytes[position])) : word)'")
                }
                return .integer(value)
            }
        }
    }

    private mutating func parseItems(closing: UInt8, depth: Int) throws -> [Value] {
        position += 1
        var items: [Value] = []
        while true {
            skipSpace()
            guard position < bytes.count else { throw NPYError.malformedHeader("it ends early") }
            if bytes[position] == closing { position += 1; return items }
            items.append(try parseValue(depth: depth + 1))
            skipSpace()
            if position < bytes.count, bytes[position] == UInt8(ascii: ",") { position += 1 }
        }
    }

    private mutating func parseString() throws -> String {
        let quote = bytes[position]
        position += 1
        let start = position
        while position < bytes.count, bytes[position] != quote {
            // NumPy writes no escape: one read as written would name a key or a field otherwise
            // than Python does ('d\x65scr' is 'descr' to it), so a second one could pass as new.
            if bytes[position] == UInt8(ascii: "\\") { throw NPYError.malformedHeader("a string holds an escape (\\)") }
            position += 1
        }
        guard position < bytes.count else { throw NPYError.malformedHeader("a string has no end") }
        defer { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }
}

extension NPYError: ClassifiedError {
    public var failureKind: FailureKind { .damaged }
}
