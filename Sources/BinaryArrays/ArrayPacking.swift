import FileIO
import JSON
import NumberText
import Failures

/// Reads values as text and writes them as binary records of a layout: `pack-array`. Reads back
/// whatever `dump-array` writes in the same layout (labels, indexes, hex, headers; JSON).
public struct ArrayPacking {
    private let record: RecordLayout
    private let layout: DoubleTextLayout
    private let output: BufferedOutput
    public private(set) var recordCount = 0
    /// The record being filled, padding zero, and how many of its fields are in.
    private var pending: [UInt8]
    private var fieldsIn = 0
    /// `record.isScalar`, read for every value.
    private let isScalar: Bool

    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// An input ends with part of a record.
        case partialRecord(fields: Int, of: Int)

        public var description: String {
            switch self {
            case .partialRecord(let fields, let total): return "the text ends inside a record: \(fields) of its \(total) fields"
            }
        }
    }

    public init(record: RecordLayout, layout: DoubleTextLayout = DoubleTextLayout(), output: BufferedOutput) {
        self.record = record
        self.layout = layout
        self.output = output
        pending = [UInt8](repeating: 0, count: record.stride)
        isScalar = record.isScalar
    }

    /// Appends the records of one text source. Stops at the first token that is not a value of its field's type.
    public mutating func pack(_ source: InputFile) throws {
        // A call with the concrete type: inside this module the parsers are specialized for it
        // (called generically from another module, each byte went through generic metadata).
        try packText(source)
    }

    public mutating func pack<Source: ByteSource>(_ source: Source) throws {
        try packText(source)
    }

    private mutating func packText<Source: ByteSource>(_ source: Source) throws {
        var cursor = TextCursor(source: source)
        while let byte = try cursor.peek(), byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A {
            cursor.advance()
        }
        if try cursor.peek().map({ $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{") }) ?? false {
            var parser = DoubleJSONParser(cursor: cursor, byteOrder: record.fields[0].byteOrder)
            try parser.forEachToken { token in try add(token) }
        } else {
            var parser = DoubleTextParser(cursor: cursor, layout: layout, byteOrder: record.fields[0].byteOrder)
            try parser.forEachToken(valuesPerRecord: record.fields.count) { token in try add(token) }
        }
        if fieldsIn != 0 { throw Problem.partialRecord(fields: fieldsIn, of: record.fields.count) }
    }

    private mutating func add(_ token: ValueToken) throws {
        let field = record.fields[fieldsIn]
        let bits = try FieldValueParser.bits(of: token, field: field)
        if isScalar {
            // A record that is one value and nothing else goes straight to the output (pack-doubles'
            // every value): no record assembled first.
            let (slot, _) = try output.reserve(record.stride)
            Self.store(bits, of: field, at: UnsafeMutableRawPointer(slot))
            output.commit(upTo: slot + record.stride)
            recordCount += 1
            return
        }
        pending.withUnsafeMutableBytes { record in Self.store(bits, of: field, at: record.baseAddress! + field.offset) }
        fieldsIn += 1
        if fieldsIn == record.fields.count {
            try output.write(pending)
            recordCount += 1
            fieldsIn = 0
        }
    }

    /// The value's low `size` bytes, in the field's byte order.
    @inline(__always)
    private static func store(_ bits: UInt64, of field: RecordLayout.Field, at destination: UnsafeMutableRawPointer) {
        let size = field.type.size
        if size == 8 {
            destination.storeBytes(of: field.byteOrder == .big ? bits.bigEndian : bits.littleEndian, as: UInt64.self)
            return
        }
        let ordered = field.byteOrder == .big ? (bits << UInt64(64 - 8 * size)).bigEndian : bits.littleEndian
        withUnsafeBytes(of: ordered) { bytes in destination.copyMemory(from: bytes.baseAddress!, byteCount: size) }
    }
}

extension ArrayPacking.Problem: ClassifiedError {
    public var failureKind: FailureKind { .damaged }
}
