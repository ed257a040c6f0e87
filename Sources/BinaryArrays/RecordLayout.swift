import FileIO
import Failures
/// Where the fields of one record lie: a lone value (`--type f32`) or consecutive structs
/// (`--type 'f64,i32,u16'`), packed or at their natural alignment, `stride` bytes apart.
public struct RecordLayout: Sendable, Equatable {
    public struct Field: Sendable, Equatable {
        public let type: ElementType
        /// From the start of the record.
        public let offset: Int
        /// Each field's own: a NumPy structured dtype may mix them.
        public let byteOrder: ByteOrder
        public let name: String

        public init(type: ElementType, offset: Int, byteOrder: ByteOrder, name: String) {
            self.type = type
            self.offset = offset
            self.byteOrder = byteOrder
            self.name = name
        }
    }

    public enum Alignment: String, CaseIterable, Sendable {
        /// Each field right after the one before.
        case packed
        /// Each field at a multiple of its size, and the record a multiple of its largest field, as C lays out a struct.
        case natural
    }

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case unknownType(String)
        case strideTooSmall(stride: Int, needed: Int)
        case namesDoNotMatch(names: Int, fields: Int)
        case emptyName
        case recordTooLarge(Int)

        public var description: String {
            switch self {
            case .unknownType(let name): return "unknown type '\(name)' (types: \(ElementType.list))"
            case .strideTooSmall(let stride, let needed): return "\(Setting.stride) \(stride) is less than the \(needed) bytes the fields take"
            case .namesDoNotMatch(let names, let fields): return "\(names) names for \(fields) fields"
            case .emptyName: return "a field name is empty"
            case .recordTooLarge(let stride): return "records of \(stride) bytes are larger than the \(RecordLayout.maxStride) read at a time"
            }
        }
    }

    public let fields: [Field]
    /// Bytes from one record to the next.
    public let stride: Int

    /// The largest record read: a block holds at least one, so this bounds memory whatever a header says.
    public static let maxStride = 1 << 20

    public init(fields: [Field], stride: Int) {
        precondition(!fields.isEmpty && stride > 0)
        self.fields = fields
        self.stride = stride
    }

    /// One value of `type` a record.
    public init(scalar type: ElementType, byteOrder: ByteOrder) {
        self.init(fields: [Field(type: type, offset: 0, byteOrder: byteOrder, name: "c0")], stride: type.size)
    }

    /// Reads `f64,i32,u16`: the fields in order, in `byteOrder`, named `names` or `c0`, `c1`...
    public init(parsing text: String, byteOrder: ByteOrder, alignment: Alignment = .packed, stride: Int? = nil,
                names: [String]? = nil) throws(Problem) {
        var types: [ElementType] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: " ")
            guard let type = ElementType(rawValue: name) else { throw .unknownType(name) }
            types.append(type)
        }
        if let names {
            guard names.count == types.count else { throw .namesDoNotMatch(names: names.count, fields: types.count) }
            guard !names.contains(where: \.isEmpty) else { throw .emptyName }
        }
        var fields: [Field] = []
        var offset = 0
        for (index, type) in types.enumerated() {
            if alignment == .natural { offset = (offset + type.size - 1) / type.size * type.size }
            fields.append(Field(type: type, offset: offset, byteOrder: byteOrder, name: names?[index] ?? "c\(index)"))
            offset += type.size
        }
        if alignment == .natural, let largest = types.map(\.size).max() {
            offset = (offset + largest - 1) / largest * largest
        }
        if let stride {
            guard stride >= offset else { throw .strideTooSmall(stride: stride, needed: offset) }
            offset = stride
        }
        guard offset <= Self.maxStride else { throw .recordTooLarge(offset) }
        self.init(fields: fields, stride: offset)
    }

    public var isScalar: Bool { fields.count == 1 && fields[0].offset == 0 && stride == fields[0].type.size }
}

private extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}

extension RecordLayout.Problem: ClassifiedError {
    public var failureKind: FailureKind { .invalidRequest }
}
