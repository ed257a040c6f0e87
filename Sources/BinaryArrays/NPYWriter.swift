import Glibc
import FileIO
import Failures

/// The header of a `.npy` file for records of a layout: written first with room for any shape,
/// then written again in place once the number of records is known.
public struct NPYWriter: Sendable {
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case bfloat16
        case rowsDoNotDivide(count: Int, columns: Int)

        public var description: String {
            switch self {
            case .bfloat16: return "NumPy has no bfloat16 dtype: \(Setting.npy) cannot hold bf16"
            case .rowsDoNotDivide(let count, let columns): return "\(count) values do not make rows of \(columns)"
            }
        }
    }

    private let descr: String
    /// Values a row: the last dimension; 1 for a one-dimensional array.
    private let columns: Int
    /// Bytes of the header, data from there on: a multiple of 64, as NumPy writes.
    public let length: Int

    public init(record: RecordLayout, columns: Int = 1) throws(Problem) {
        guard !record.fields.contains(where: { $0.type == .bf16 }) else { throw .bfloat16 }
        descr = Self.descr(of: record)
        self.columns = columns
        // Room for the longest shape there can be.
        length = (Self.text(descr: descr, shape: "(\(Int.max), \(columns))").utf8.count + 11 + 63) / 64 * 64
    }

    /// The header for `count` records.
    public func header(count: Int) throws(Problem) -> [UInt8] {
        let shape: String
        if columns > 1 {
            guard count % columns == 0 else { throw .rowsDoNotDivide(count: count, columns: columns) }
            shape = "(\(count / columns), \(columns))"
        } else {
            shape = "(\(count),)"
        }
        var text = Array(Self.text(descr: descr, shape: shape).utf8)
        // Spaces to the length, the last a line end, as NumPy pads.
        text += [UInt8](repeating: 0x20, count: length - 10 - text.count - 1) + [0x0A]
        let size = text.count
        return [0x93] + Array("NUMPY".utf8) + [1, 0, UInt8(size & 0xFF), UInt8(size >> 8)] + text
    }

    /// Writes the header at the start of the file open as `descriptor`.
    public func rewrite(count: Int, descriptor: Int32, name: String) throws {
        try FileSystem.writeAll(try header(count: count), to: descriptor, at: 0, target: name)
    }

    private static func text(descr: String, shape: String) -> String {
        "{'descr': \(descr), 'fortran_order': False, 'shape': \(shape), }"
    }

    private static func typeString(_ field: RecordLayout.Field) -> String {
        let order = field.type.size == 1 ? "|" : field.byteOrder == .little ? "<" : ">"
        let code: String
        switch field.type {
        case .f64: code = "f8"
        case .f32: code = "f4"
        case .f16: code = "f2"
        case .bf16: code = "V2"
        case .i8: code = "i1"
        case .i16: code = "i2"
        case .i32: code = "i4"
        case .i64: code = "i8"
        case .u8: code = "u1"
        case .u16: code = "u2"
        case .u32: code = "u4"
        case .u64: code = "u8"
        }
        return "'\(order)\(code)'"
    }

    /// `'<f4'`, or a struct's list, the gaps between fields as unnamed void padding.
    private static func descr(of record: RecordLayout) -> String {
        if record.isScalar { return typeString(record.fields[0]) }
        var items: [String] = []
        var offset = 0
        for field in record.fields.sorted(by: { $0.offset < $1.offset }) {
            if field.offset > offset { items.append("('', '|V\(field.offset - offset)')") }
            items.append("('\(field.name)', \(typeString(field)))")
            offset = field.offset + field.type.size
        }
        if record.stride > offset { items.append("('', '|V\(record.stride - offset)')") }
        return "[" + items.joined(separator: ", ") + "]"
    }
}

extension NPYWriter.Problem: ClassifiedError {
    public var failureKind: FailureKind { .invalidRequest }
}
